import { afterEach, describe, expect, it } from "vitest";
import { cleanupInk, press, renderApp, resize, waitForFrame } from "../../test/helpers/ink.js";
import { makeSummary } from "../../test/helpers/sessions.js";

afterEach(cleanupInk);

const session = makeSummary({
  path: "/s/one.jsonl",
  cwd: "/home/u/work",
  name: "the session",
  firstMessage: "hello there",
});

describe("n, and copy without a clipboard, on screen", () => {
  it("a leaves for pi in the session's folder (Ctrl+N is pi's named filter)", async () => {
    const h = await renderApp({ sessions: [session], all: true });
    await resize(h.r, 100, 24);
    await waitForFrame(h.r, (f) => f.includes("the session"));
    await press(h.r, "a");
    await waitForFrame(h.r, () => h.exits.length > 0);
    expect(h.exits).toEqual([{ kind: "new", cwd: "/home/u/work" }]);
  });

  it("a stays and says why when pi cannot be started, or when the folder is gone", async () => {
    const noPi = await renderApp({ sessions: [session], all: true, deps: { piProblem: () => "pi not found on PATH" } });
    await resize(noPi.r, 100, 24);
    await waitForFrame(noPi.r, (f) => f.includes("the session"));
    await press(noPi.r, "a");
    await waitForFrame(noPi.r, (f) => f.includes("pi not found on PATH"));
    expect(noPi.exits).toEqual([]);
    const gone = await renderApp({ sessions: [session], all: true, deps: { cwdExists: () => false } });
    await resize(gone.r, 100, 24);
    await waitForFrame(gone.r, (f) => f.includes("the session"));
    await press(gone.r, "a");
    await waitForFrame(gone.r, (f) => f.includes("the session's folder is gone: /home/u/work"));
    expect(gone.exits).toEqual([]);
  });

  it("y says so when there is no terminal to copy through; with one, what was copied", async () => {
    const none = await renderApp({ sessions: [session], all: true });
    await resize(none.r, 100, 24);
    await waitForFrame(none.r, (f) => f.includes("the session"));
    await press(none.r, "y");
    await waitForFrame(none.r, (f) => f.includes("no clipboard"));
    const copied: string[] = [];
    const h = await renderApp({ sessions: [session], all: true, deps: { copy: (t) => copied.push(t) } });
    await resize(h.r, 100, 24);
    await waitForFrame(h.r, (f) => f.includes("the session"));
    await press(h.r, "i");
    await waitForFrame(h.r, (f) => f.includes(`copied the session id: ${session.id}`));
    expect(copied).toEqual([session.id]);
  });
});

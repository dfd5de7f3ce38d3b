import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupInk, press, renderApp, settle, typeText, waitForFrame } from "../../test/helpers/ink.js";
import { RAW } from "../../test/helpers/keys.js";
import { makeSessions } from "../../test/helpers/sessions.js";
import type { LifecycleDeps } from "../../src/browser/lifecycle/lifecycleEffects.js";

afterEach(cleanupInk);

const CWD = "/home/u/proj";

function fakeLifecycle() {
  const renames: { path: string; name: string }[] = [];
  const deps: LifecycleDeps = {
    rename: async (path, name) => {
      renames.push({ path, name });
      return { name: name.trim() };
    },
    trash: () => ({ records: [] }),
    deletePermanently: () => [],
    restore: () => undefined,
    trashLocation: () => "/home/u/.local/share/Trash",
  };
  return { deps, renames };
}

describe("RenameDialog", () => {
  it("opens pre-filled with Ctrl+R, keeps every key of a fast burst, and Enter renames the row at once", async () => {
    const sessions = makeSessions(3, { cwd: CWD, name: "old" });
    const life = fakeLifecycle();
    const { r } = await renderApp({ sessions, deps: { lifecycle: life.deps } });
    await press(r, "\x12"); // Ctrl+R
    let f = r.lastFrame()!;
    expect(f).toContain("Rename session");
    expect(f).toContain("Name: old");
    // A burst: every key written before the app renders once.
    await act(async () => {
      for (const c of " quick jk rsq") r.stdin.write(c);
    });
    f = r.lastFrame()!;
    expect(f).toContain("Name: old quick jk rsq");
    await press(r, RAW.enter);
    await waitForFrame(r, (x) => x.includes("Renamed to") && !x.includes("Rename session"));
    expect(life.renames).toEqual([{ path: sessions[0].path, name: "old quick jk rsq" }]);
    expect(r.lastFrame()).toContain("old quick jk rsq");
    // The status line stays through keys and fades after a few seconds.
    await press(r, "j");
    expect(r.lastFrame()).toContain("Renamed to");
    // On a line of its own: the key hints stay.
    expect(r.lastFrame()).toContain("? help");
  });

  it("inserts a pasted chunk whole (newlines become spaces), and Esc cancels without renaming", async () => {
    const sessions = makeSessions(2, { cwd: CWD });
    const life = fakeLifecycle();
    const { r } = await renderApp({ sessions, deps: { lifecycle: life.deps } });
    await press(r, "r");
    await press(r, "pasted\nname with q and j");
    expect(r.lastFrame()).toContain("Name: pasted name with q and j");
    await typeText(r, "!");
    expect(r.lastFrame()).toContain("Name: pasted name with q and j!");
    await press(r, RAW.escape);
    await settle(20);
    expect(r.lastFrame()).not.toContain("Rename session");
    expect(life.renames).toEqual([]);
  });

  it("an empty name clears it", async () => {
    const sessions = makeSessions(2, { cwd: CWD, name: "to clear" });
    const life = fakeLifecycle();
    const { r } = await renderApp({ sessions, deps: { lifecycle: life.deps } });
    await press(r, "r", RAW.ctrlU, RAW.enter);
    await waitForFrame(r, (x) => x.includes("Name cleared"));
    expect(life.renames).toEqual([{ path: sessions[0].path, name: "" }]);
  });
});

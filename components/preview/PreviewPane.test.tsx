import { afterEach, describe, expect, it } from "vitest";
import { cleanupInk, renderInk } from "../../test/helpers/ink.js";
import { makeSummary } from "../../test/helpers/sessions.js";
import { PreviewPane } from "./PreviewPane.js";

afterEach(cleanupInk);

describe("PreviewPane", () => {
  const s = makeSummary({ cwd: "/srv/app", firstMessage: "hi" });
  it("shows facts and the tail, thinking already excluded by the loader", async () => {
    const r = await renderInk(
      <PreviewPane
        session={s}
        state={{
          status: "ready",
          tail: {
            entries: [
              { role: "user", text: "run tests", toolCalls: [] },
              { role: "assistant", text: "ok", toolCalls: ["bash: npm test"] },
            ],
            pathLength: 2,
          },
        }}
        position="right"
        width={60}
        height={24}
        inner={{ width: 58, height: 24 }}
      />,
    );
    const f = r.lastFrame()!;
    expect(f).toContain("/srv/app");
    expect(f).toContain(s.id);
    expect(f).toContain("run tests");
    expect(f).toContain("→ bash: npm test");
    expect(f.split("\n").length).toBeLessThanOrEqual(24);
  });
  it("shows loading while the tail is read, and nothing selected", async () => {
    const r = await renderInk(
      <PreviewPane
        session={s}
        state={{ status: "loading" }}
        position="below"
        width={80}
        height={20}
        inner={{ width: 80, height: 19 }}
      />,
    );
    expect(r.lastFrame()).toContain("loading…");
    const n = await renderInk(
      <PreviewPane
        session={undefined}
        state={{ status: "idle" }}
        position="below"
        width={80}
        height={5}
        inner={{ width: 80, height: 4 }}
      />,
    );
    expect(n.lastFrame()).toContain("no session selected");
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { cleanupInk, renderApp, resize, settle, waitForFrame } from "../../test/helpers/ink.js";
import { makeSummary } from "../../test/helpers/sessions.js";

afterEach(cleanupInk);

/*
 * The browser at 80×24, the smallest usual terminal: the preview sits below the list with
 * seven rows. It shows the session's first exchange, then its facts (seven rows of facts
 * alone said nothing of the conversation).
 */
describe("the preview at 80×24", () => {
  it("shows the first exchange, then the facts", async () => {
    const session = makeSummary({ cwd: "/home/u/proj", firstMessage: "fix the flaky parser test" });
    const { r } = await renderApp({
      sessions: [session],
      preview: () => ({
        entries: [{ role: "assistant", text: "all green now", toolCalls: [] }],
        head: [
          { role: "user", text: "fix the flaky parser test", toolCalls: [] },
          { role: "assistant", text: "", toolCalls: ["bash: npm test"] },
          { role: "assistant", text: "The test raced the watcher; it waits for it now.", toolCalls: [] },
        ],
        pathLength: 30,
      }),
    });
    await resize(r, 80, 24);
    await settle(50);
    const frame = await waitForFrame(r, (f) => f.includes("fix the flaky parser test") && f.includes("─ Preview"));
    const pane = frame.split("\n").slice(frame.split("\n").findIndex((l) => l.includes("─ Preview")));
    expect(pane.slice(0, 9).join("\n")).toMatchInlineSnapshot(`
      "╭─ Preview ────────────────────────────────────────────────────────────────────╮
      │ you                                                                          │
      │   fix the flaky parser test                                                  │
      │ assistant                                                                    │
      │   → bash: npm test                                                           │
      │ assistant                                                                    │
      │   The test raced the watcher; it waits for it now.                           │
      │ ↓ 6 more lines (J/Shift+↓)                                                   │
      ╰──────────────────────────────────────────────────────────────────────────────╯"
    `);
  });
});

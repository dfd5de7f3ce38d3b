import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { act } from "react";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { cleanupInk, press, renderApp, resize, typeText, waitForFrame } from "../../test/helpers/ink.js";
import { RAW } from "../../test/helpers/keys.js";
import { assistant, entry, user, writeSession } from "../../test/helpers/session-file.js";
import { makeSummary } from "../../test/helpers/sessions.js";
import type { MouseEvent } from "../../src/browser/keys/sgrMouse.js";

afterEach(cleanupInk);

/** Ten turns, each with a 40-line tool output. */
const turns: Record<string, unknown>[] = [];
let parent: string | null = null;
for (let i = 0; i < 10; i++) {
  turns.push(user(`u${i}`, parent, `question ${i}`));
  turns.push(
    entry(`c${i}`, `u${i}`, {
      message: {
        role: "assistant",
        content: [{ type: "toolCall", id: `t${i}`, name: "bash", arguments: { command: `run ${i}` } }],
        stopReason: "toolUse",
      },
    }),
  );
  turns.push(
    entry(`r${i}`, `c${i}`, {
      message: {
        role: "toolResult",
        toolCallId: `t${i}`,
        toolName: "bash",
        content: [{ type: "text", text: Array.from({ length: 40 }, (_, k) => `line ${i}.${k}`).join("\n") }],
      },
    }),
  );
  turns.push(assistant(`a${i}`, `r${i}`, `answer ${i}`));
  parent = `a${i}`;
}
const file = writeSession(turns);
const out = mkdtempSync(join(tmpdir(), "pi-sessions-reader-ui-"));
afterAll(() => {
  file.cleanup();
  rmSync(out, { recursive: true, force: true });
});

async function app() {
  const copied: string[] = [];
  const h = await renderApp({
    sessions: [makeSummary({ path: file.path, cwd: out, name: "ten turns", firstMessage: "question 0" })],
    launchCwd: out,
    all: true,
    deps: { copy: (t) => copied.push(t) },
  });
  await resize(h.r, 100, 24);
  await waitForFrame(h.r, (f) => f.includes("ten turns"));
  return { ...h, copied };
}

const mouse = async (h: { r: { stdin: NodeJS.EventEmitter } }, ev: MouseEvent) => {
  await act(async () => {
    h.r.stdin.emit("mouse", ev);
  });
};

describe("the reader on screen", () => {
  it("v opens at the end; g, z expands the tool under the cursor, / searches with match x of y; q goes back", async () => {
    const h = await app();
    await press(h.r, "v");
    let f = await waitForFrame(h.r, (f) => f.includes("answer 9"));
    expect(f).toContain("Reader");
    // More than a screen: the border says how far through the cursor is.
    expect(f).toMatch(/─ 100% ─/);
    expect(f).toMatch(/▸ bash: run 9 · 40 lines/);
    expect(f).not.toContain("question 0");
    await press(h.r, "g");
    f = await waitForFrame(h.r, (f) => f.includes("question 0"));
    expect(f).toMatch(/❯ You/);
    await press(h.r, "j", "j", "j", "z");
    f = await waitForFrame(h.r, (f) => f.includes("line 0.9"));
    expect(f).toContain("30 more lines (t: full output)");
    await press(h.r, "z");
    f = await waitForFrame(h.r, (f) => f.includes("line 0.12"));
    await press(h.r, "/");
    await typeText(h.r, "answer");
    await press(h.r, RAW.enter);
    f = await waitForFrame(h.r, (f) => f.includes("match 1 of 10"));
    await press(h.r, "N");
    await waitForFrame(h.r, (f) => f.includes("match 10 of 10") && f.includes("answer 9"));
    await press(h.r, "q");
    f = await waitForFrame(h.r, (f) => !f.includes("Reader"));
    expect(f).toContain("Sessions");
  });

  it("says 'all' on the border when the whole transcript is on the screen, not a percentage", async () => {
    const short = writeSession([user("s0", null, "short question"), assistant("s1", "s0", "short answer")]);
    try {
      const h = await renderApp({
        sessions: [makeSummary({ path: short.path, cwd: out, name: "short one", firstMessage: "short question" })],
        launchCwd: out,
        all: true,
      });
      await resize(h.r, 100, 24);
      await waitForFrame(h.r, (f) => f.includes("short one"));
      await press(h.r, "v");
      const f = await waitForFrame(h.r, (f) => f.includes("short answer"));
      expect(f).toMatch(/─ all ─/);
      expect(f).not.toMatch(/\d+%/);
    } finally {
      short.cleanup();
    }
  });

  it("y copies the message under the cursor and says so; the wheel scrolls the transcript", async () => {
    const h = await app();
    await press(h.r, "v");
    await waitForFrame(h.r, (f) => f.includes("answer 9"));
    await press(h.r, "y");
    await waitForFrame(h.r, (f) => f.includes("copied"));
    // Opened at the end: the cursor is on the last block, the last answer.
    expect(h.copied).toEqual(["answer 9"]);
    await press(h.r, "g");
    await waitForFrame(h.r, (f) => f.includes("question 0"));
    for (let i = 0; i < 4; i++) await mouse(h, { kind: "wheel", button: 1, x: 10, y: 10 });
    // 4 × 3 lines: the first turn is gone, and the cursor came along on the top line.
    const f = await waitForFrame(h.r, (f) => !f.includes("question 0"));
    expect(f).toContain("answer 1");
    expect(f.split("\n")[2]).toMatch(/^│❯/);
  });

  it("e exports the reader's branch to a new file in the current folder and names it", async () => {
    const h = await app();
    await press(h.r, "v");
    await waitForFrame(h.r, (f) => f.includes("answer 9"));
    await press(h.r, "e");
    const dialog = await waitForFrame(h.r, (f) => f.includes("Export"));
    // Drawn over the transcript, which stays, with the dialog's keys in the footer at the bottom.
    expect(dialog).toContain("Transcript");
    expect(dialog.split("\n").at(-1)).toContain("l jsonl");
    expect(dialog.split("\n")).toHaveLength(24);
    await press(h.r, "m");
    const f = await waitForFrame(h.r, (f) => f.includes("exported"));
    const name = readdirSync(out).find((n) => n.endsWith(".md"))!;
    expect(f).toContain(`./${name}`);
    expect(readFileSync(join(out, name), "utf8")).toContain("answer 9");
  });

  it("? opens the help at the reader's keys", async () => {
    const h = await app();
    await press(h.r, "v");
    await waitForFrame(h.r, (f) => f.includes("answer 9"));
    await press(h.r, "?");
    const f = await waitForFrame(h.r, (f) => f.includes("Keys"));
    // The reader's section first: right under the note on rebinding, before the list's.
    const lines = f.split("\n");
    const reader = lines.findIndex((l) => l.includes("Transcript reader"));
    expect(reader).toBeGreaterThan(0);
    expect(reader).toBeLessThanOrEqual(6);
    expect(lines.slice(0, reader).some((l) => /│ List\b/.test(l))).toBe(false);
  });

  it("in the list a click selects, a double-click resumes", async () => {
    const sessions = [0, 1, 2].map((i) =>
      makeSummary({
        path: `/s/${i}.jsonl`,
        cwd: "/c",
        firstMessage: `session ${i}`,
        modified: new Date(2026, 0, 10 - i),
      }),
    );
    const h = await renderApp({ sessions, all: true });
    await resize(h.r, 100, 24);
    await waitForFrame(h.r, (f) => f.includes("session 2"));
    // Header, border, headings: the first row is screen line 3.
    await mouse(h, { kind: "press", button: 0, x: 5, y: 5 });
    await waitForFrame(h.r, (f) => f.includes("3 of 3"));
    expect(h.exits).toEqual([]);
    await mouse(h, { kind: "press", button: 0, x: 5, y: 5 });
    await waitForFrame(h.r, () => h.exits.length > 0);
    expect(h.exits).toEqual([{ kind: "resume", path: "/s/2.jsonl", cwd: "/c" }]);
  });
});

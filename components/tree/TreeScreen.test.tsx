import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupInk, press, renderApp, resize, typeText, waitForFrame } from "../../test/helpers/ink.js";
import { RAW } from "../../test/helpers/keys.js";
import { assistant, entry, user, writeSession } from "../../test/helpers/session-file.js";
import { makeSummary } from "../../test/helpers/sessions.js";

afterEach(cleanupInk);
const files: { cleanup(): void }[] = [];
afterEach(() => files.splice(0).forEach((f) => f.cleanup()));

const CWD = "/home/u/proj";
const selectedLine = (f: string) => f.split("\n").find((l) => l.includes("❯")) ?? "";

// u1 ─ a1 ─┬─ u3 ─ a3 ─ l1 (label "keep" on u3; the leaf)   active
//          └─ u2 ─ r2 (a tool result) ─ a2
function session() {
  const f = writeSession(
    [
      entry("m0", null, { type: "model_change", provider: "p", modelId: "m" }),
      user("u1", "m0", "first question"),
      assistant("a1", "u1", "first answer", {
        usage: { input: 1200, output: 340, cacheRead: 0, cacheWrite: 0, cost: { total: 0.02 } },
      }),
      user("u2", "a1", "old branch question"),
      assistant("c2", "u2", "", {
        content: [{ type: "toolCall", id: "t1", name: "bash", arguments: { command: "npm test" } }],
        stopReason: "toolUse",
      }),
      entry("r2", "c2", {
        message: {
          role: "toolResult",
          toolCallId: "t1",
          toolName: "bash",
          content: [{ type: "text", text: "ok\x1b[31m red" }],
        },
      }),
      assistant("a2", "r2", "old branch answer"),
      user("u3", "a1", "new branch question"),
      assistant("a3", "u3", "new branch answer " + "long ".repeat(400) + "THE-END"),
      entry("l1", "a3", { type: "label", targetId: "u3", label: "keep" }),
    ],
    {
      type: "session",
      version: 3,
      id: "0196e0a2-8c1d-7b3e-9f40-5a7c2d1e8b90",
      timestamp: "2026-05-02T09:14:03.221Z",
      cwd: CWD,
    },
  );
  files.push(f);
  return f;
}

async function openTree() {
  const f = session();
  const h = await renderApp({ sessions: [makeSummary({ path: f.path, cwd: CWD, firstMessage: "first question" })] });
  await resize(h.r, 120, 30);
  await press(h.r, "t");
  const frame = await waitForFrame(h.r, (s) => s.includes("← active"));
  return { ...h, f, frame };
}

describe("TreeScreen", () => {
  it("draws rows with the cursor, connectors, fold marks, active markers, labels and the header", async () => {
    const { frame } = await openTree();
    expect(frame).toContain("tree · first question · filter: default · 4/7");
    const lines = frame.split("\n").slice(1);
    const row = (t: string) => lines.find((l) => l.includes(t)) ?? "";
    expect(row("first question")).toMatch(/• user: first question/);
    expect(row("new branch question")).toMatch(/├⊟ • \[keep\] user: new branch question/);
    expect(row("old branch question")).toMatch(/└⊟ user: old branch question/);
    expect(row("old branch question")).not.toContain("•");
    expect(selectedLine(frame)).toMatch(/❯ .*• assistant: new branch answer.*← active/);
    // a skimmed tool result still says what ran; the assistant turn with only a tool call is hidden
    expect(frame).toContain("bash: npm test");
    expect(frame).not.toContain("\x1b[31m");
    expect(frame).not.toContain("label: keep"); // label entries are hidden by default
  });

  it("previews the selected entry in full, with model and tokens, and scrolls it with J/K", async () => {
    const { r } = await openTree();
    await press(r, RAW.up, RAW.up);
    let f = await waitForFrame(r, (s) => s.includes("tokens 1.2k in · 340 out"));
    expect(f).toContain("model m");
    expect(f).toMatch(/assistant · \d{4}-\d\d-\d\d \d\d:\d\d · a1/);
    await press(r, RAW.down, RAW.down); // a3, with a long text
    f = await waitForFrame(r, (s) => s.includes("more lines"));
    expect(f).not.toContain("THE-END");
    await press(r, "J", "J", "J", "J", "J", "J", "J", "J");
    f = await waitForFrame(r, (s) => s.includes("THE-END"));
  });

  it("pages the entry preview and jumps to its end and start (Shift+PgDn, Shift+End/>, Shift+Home/<)", async () => {
    const { r } = await openTree();
    await waitForFrame(r, (s) => s.includes("more lines"));
    const firstText = () => r.lastFrame()!.includes("new branch answer long");
    expect(firstText()).toBe(true);
    await press(r, RAW.shiftEnd);
    const f = await waitForFrame(r, (s) => s.includes("THE-END"));
    expect(f).not.toContain("more lines");
    await press(r, RAW.shiftHome);
    await waitForFrame(r, (s) => s.includes("new branch answer long") && !s.includes("THE-END"));
    await press(r, ">");
    await waitForFrame(r, (s) => s.includes("THE-END"));
    await press(r, "<");
    await waitForFrame(r, () => firstText());
    const more = (x: string) => Number(/↓ (\d+) more lines/.exec(x)?.[1]);
    const before = more(r.lastFrame()!);
    const pageDown = async (k: string) => {
      await press(r, k);
      expect(more(r.lastFrame()!) || 0).toBeLessThan(before);
    };
    await pageDown(RAW.shiftPageDown);
    await press(r, RAW.shiftPageUp);
    expect(more(r.lastFrame()!)).toBe(before);
    // The tree's cursor stayed on its entry all along.
    expect(selectedLine(r.lastFrame()!)).toContain("new branch answer");
  });

  it("folds with ←, unfolds with →, jumps to the sibling branch with ], and cycles filters with o", async () => {
    const { r } = await openTree();
    await press(r, RAW.left);
    expect(selectedLine(r.lastFrame()!)).toContain("new branch question");
    await press(r, RAW.left);
    let f = r.lastFrame()!;
    expect(f).toContain("├⊞ • [keep] user: new branch question");
    expect(f).not.toContain("new branch answer");
    await press(r, RAW.right);
    expect(r.lastFrame()!).toContain("new branch answer");
    await press(r, "]");
    expect(selectedLine(r.lastFrame()!)).toContain("old branch question");
    await press(r, "[");
    expect(selectedLine(r.lastFrame()!)).toContain("new branch question");
    await press(r, "o", "o");
    f = r.lastFrame()!;
    expect(f).toContain("filter: user-only");
    expect(f).not.toContain("assistant:");
    await press(r, "o");
    f = r.lastFrame()!;
    expect(f).toContain("filter: labelled-only · 1/1");
    await press(r, "o");
    expect(r.lastFrame()!).toContain("[label: keep]");
  });

  it("searches the full text with / and marks matches; n moves between them", async () => {
    const { r } = await openTree();
    await press(r, "/");
    await typeText(r, "branch");
    expect(r.lastFrame()!).toContain("search: branch");
    await press(r, RAW.enter);
    let f = await waitForFrame(r, (s) => /match \d\/4/.test(s));
    expect(f.split("\n").filter((l) => l.includes("◆")).length).toBe(4);
    await press(r, "/", RAW.ctrlU);
    await typeText(r, "the-end");
    await press(r, RAW.enter);
    f = await waitForFrame(r, (s) => s.includes("match 1/1"));
    expect(selectedLine(f)).toContain("new branch answer");
    await press(r, "n");
    expect(selectedLine(r.lastFrame()!)).toContain("new branch answer");
  });

  it("labels with L: pre-filled, confirms a recent file, writes one label entry and shows it at once", async () => {
    const { r, f } = await openTree();
    const before = readFileSync(f.path, "utf8");
    await press(r, RAW.left, "L");
    let frame = await waitForFrame(r, (s) => s.includes("Label the entry"));
    expect(frame).toContain("Label: keep");
    await press(r, RAW.ctrlU);
    await typeText(r, "chosen");
    await press(r, RAW.enter);
    frame = await waitForFrame(r, (s) => s.includes("write anyway? y/N"));
    await press(r, "y");
    frame = await waitForFrame(r, (s) => s.includes("[chosen] user: new branch question"));
    const after = readFileSync(f.path, "utf8");
    expect(after.startsWith(before)).toBe(true);
    const added = JSON.parse(after.slice(before.length));
    expect(added).toMatchObject({ type: "label", targetId: "u3", label: "chosen" });
    // our own write does not count as "pi has it open": the next label is written at once
    await press(r, "L", RAW.ctrlU, RAW.enter);
    await waitForFrame(r, (s) => s.includes("label cleared") && !s.includes("[chosen]"));
  });

  it("Esc cancels the label dialog; n cancels a write; ← at the top goes back to the list", async () => {
    const { r, f } = await openTree();
    const before = readFileSync(f.path, "utf8");
    await press(r, "L");
    await waitForFrame(r, (s) => s.includes("Label the entry"));
    await press(r, RAW.escape);
    await waitForFrame(r, (s) => !s.includes("Label the entry"));
    await press(r, RAW.enter);
    await waitForFrame(r, (s) => s.includes("write anyway? y/N"));
    await press(r, "n");
    await waitForFrame(r, (s) => s.includes("nothing written"));
    expect(readFileSync(f.path, "utf8")).toBe(before);
    await press(r, "g", RAW.left);
    const frame = await waitForFrame(r, (s) => !s.includes("tree ·"));
    expect(selectedLine(frame)).toContain("first question");
  });

  it("resuming here when the session's folder is gone: the position is written and pi starts where the browser did (pi asks there)", async () => {
    const f = session();
    const h = await renderApp({
      sessions: [makeSummary({ path: f.path, cwd: "/gone", firstMessage: "first question" })],
      deps: { cwdExists: () => false },
    });
    const lines = readFileSync(f.path, "utf8").split("\n").filter(Boolean).length;
    await resize(h.r, 120, 30);
    await press(h.r, "t");
    await waitForFrame(h.r, (x) => x.includes("← active"));
    await press(h.r, RAW.enter); // no question of ours: the file was just written, so only "write anyway?"
    await waitForFrame(h.r, (x) => x.includes("write anyway"));
    expect(readFileSync(f.path, "utf8").split("\n").filter(Boolean)).toHaveLength(lines);
    await press(h.r, "y");
    await waitForFrame(h.r, () => h.exits.length > 0);
    expect(h.exits).toEqual([{ kind: "resume", path: f.path, cwd: CWD }]);
    expect(readFileSync(f.path, "utf8").split("\n").filter(Boolean)).toHaveLength(lines + 1);
  });
});

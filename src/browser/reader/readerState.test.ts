import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadSessionIndex } from "../../store/session-index.js";
import { assistant, entry, user, writeBranchedSession, writeSession } from "../../../test/helpers/session-file.js";
import {
  blockOfEntry,
  branchInfo,
  withBranch,
  cursorToRow,
  cycleAllTools,
  cycleTool,
  jumpMessage,
  moveCursor,
  newReaderState,
  nextMatch,
  type ReaderState,
  resize,
  scroll,
  scrollWindow,
  search,
  siblingBranch,
  toggleOriginal,
  toggleThinking,
  toolBlockAt,
  toStart,
  withIndex,
} from "./readerState.js";

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** The window's text, one string per line. */
const screen = (r: ReaderState) => r.transcript!.window(r.top, r.height).map((l) => l.text);
const cursorText = (r: ReaderState) => r.transcript!.lines(r.cursor.block)[r.cursor.line].text;

/** A conversation of `turns` user/assistant pairs, the assistant calling bash with a 30-line output. */
function longSession(turns: number) {
  const entries: Record<string, unknown>[] = [];
  let parent: string | null = null;
  for (let i = 0; i < turns; i++) {
    entries.push(user(`u${i}`, parent, `question ${i}`));
    entries.push(
      entry(`c${i}`, `u${i}`, {
        message: {
          role: "assistant",
          content: [
            { type: "thinking", thinking: `ponder ${i}` },
            { type: "toolCall", id: `t${i}`, name: "bash", arguments: { command: `step ${i}` } },
          ],
          stopReason: "toolUse",
        },
      }),
    );
    entries.push(
      entry(`r${i}`, `c${i}`, {
        message: {
          role: "toolResult",
          toolCallId: `t${i}`,
          toolName: "bash",
          content: [{ type: "text", text: Array.from({ length: 30 }, (_, k) => `out ${i}.${k}`).join("\n") }],
        },
      }),
    );
    entries.push(assistant(`a${i}`, `r${i}`, `answer ${i}`));
    parent = `a${i}`;
  }
  const s = writeSession(entries);
  cleanups.push(s.cleanup);
  return s;
}

async function open(path: string, focusId?: string, width = 60, height = 10): Promise<ReaderState> {
  const index = await loadSessionIndex(path, { skim: true });
  return resize(withIndex(newReaderState(path, "/home/u/proj", "t", focusId), index), width, height);
}

describe("the reader's state", () => {
  it("opens at the end of the active branch, having laid out only the last screen", async () => {
    const r = await open(longSession(200).path);
    expect(screen(r).filter(Boolean).slice(-2)).toEqual(["Assistant · m", "  answer 199"]);
    expect(r.cursor).toEqual(r.transcript!.end);
    expect(r.transcript!.laidOutCount).toBeLessThan(10);
  });

  it("j/k move the cursor and the window follows; pages move both; the window never runs past the end", async () => {
    let r = await open(longSession(5).path);
    r = toStart(r);
    expect(cursorText(r)).toBe("You");
    r = moveCursor(r, 1);
    expect(cursorText(r)).toBe("  question 0");
    expect(r.top).toEqual({ block: 0, line: 0 });
    r = moveCursor(r, 12);
    // The cursor left the window at the bottom: the window follows, the cursor on its last line.
    expect(screen(r)[r.height - 1]).toBe(cursorText(r));
    const before = r.top;
    r = scroll(r, 9);
    expect(r.top).toEqual(r.transcript!.move(before, 9));
    r = scroll(r, 10_000);
    expect(r.top).toEqual(r.transcript!.tail(r.height));
    r = scrollWindow(toStart(r), 3);
    // The wheel moves the window; the cursor, above it now, comes along to stay on screen.
    expect(r.cursor).toEqual(r.top);
    r = cursorToRow(r, 4);
    expect(cursorText(r)).toBe(screen(r)[4]);
  });

  it("{ and } go from message to message, past tool calls", async () => {
    let r = toStart(await open(longSession(3).path));
    const heads: string[] = [];
    for (let i = 0; i < 5; i++) {
      r = jumpMessage(r, 1);
      heads.push(cursorText(r));
      // The message starts the window.
      expect(r.top).toEqual(r.cursor);
    }
    expect(heads).toEqual(["Assistant", "Assistant · m", "You", "Assistant", "Assistant · m"]);
    r = jumpMessage(r, -1);
    expect(cursorText(r)).toBe("Assistant");
  });

  it("t cycles the tool under the cursor collapsed → truncated → full; a toggles every tool; T shows thinking", async () => {
    let r = toStart(await open(longSession(2).path, undefined, 60, 50));
    expect(screen(r)).toContain("  ▸ bash: step 0 · 30 lines");
    expect(screen(r)).toContain("  Thinking…");
    const b = toolBlockAt(r);
    expect(r.transcript!.blocks.kind(b)).toBe("tool");
    r = cycleTool(r, b);
    expect(screen(r)).toContain("    … 20 more lines (t: full output)");
    r = cycleTool(r, b);
    expect(screen(r)).toContain("    out 0.29");
    r = cycleTool(r, b);
    expect(screen(r)).toContain("  ▸ bash: step 0 · 30 lines");
    // The other tool call was untouched all along; `a` changes both.
    expect(screen(r)).toContain("  ▸ bash: step 1 · 30 lines");
    r = cycleAllTools(r);
    expect(screen(r).filter((l) => l.includes("more lines (t: full output)"))).toHaveLength(2);
    r = toggleThinking(r);
    expect(screen(r)).toContain("  ponder 0");
  });

  it("/ finds what is shown, n / N go round, and a match under a collapsed tool is not found until shown", async () => {
    let r = toStart(await open(longSession(4).path));
    r = search(r, "answer");
    expect(r.matches).toHaveLength(4);
    expect(r.match).toBe(0);
    expect(cursorText(r)).toBe("  answer 0");
    r = nextMatch(r, -1);
    expect(cursorText(r)).toBe("  answer 3");
    r = nextMatch(r, 1);
    expect(cursorText(r)).toBe("  answer 0");
    expect(search(r, "out 2.5").matches).toHaveLength(0);
    const full = cycleAllTools(cycleAllTools(r));
    expect(search(full, "out 2.5").matches).toHaveLength(1);
  });

  it("opens at an entry on another branch (from the tree), and [ ] switch between sibling branches", async () => {
    const s = writeBranchedSession();
    cleanups.push(s.cleanup);
    const r = await open(s.path, "u2");
    expect(r.ids).toEqual(["m0", "u1", "a1", "u2", "a2"]);
    expect(cursorText(r)).toBe("You");
    expect(r.transcript!.lines(r.cursor.block)[1].text).toBe("  old branch question");
    expect(branchInfo(r)).toBe("branch 1 of 2");
    // The counter names the branch, not the fork nearest the cursor: the same from the top.
    expect(branchInfo(toStart(r))).toBe("branch 1 of 2");
    const index = r.index!;
    const sib = siblingBranch(index, r.ids, "a2", 1)!;
    expect(sib).toEqual({ ids: ["m0", "u1", "a1", "u3", "a3", "l1"], focusId: "u3" });
    expect(branchInfo(withBranch(r, index, sib.ids, sib.focusId))).toBe("branch 2 of 2");
    // Wrapping around, both ways.
    expect(siblingBranch(index, sib.ids, "u3", 1)!.focusId).toBe("u2");
    expect(siblingBranch(index, sib.ids, "u3", -1)!.focusId).toBe("u2");
    // From above the branch point, the nearest one is below.
    expect(siblingBranch(index, r.ids, "u1", 1)!.focusId).toBe("u3");
    const straight = writeSession([user("x1", null, "q"), assistant("x2", "x1", "a")]);
    cleanups.push(straight.cleanup);
    const idx2 = await loadSessionIndex(straight.path, { skim: true });
    expect(siblingBranch(idx2, ["x1", "x2"], "x2", 1)).toBeNull();
  });

  it("finds an entry's block by binary search over where blocks start", async () => {
    const r = await open(longSession(50).path);
    const list = r.transcript!.blocks;
    for (const id of ["u0", "c7", "r7", "a7", "a49"]) {
      const b = blockOfEntry(list, r.ids, id);
      const start = list.entryId(b);
      expect(r.ids.indexOf(start)).toBeLessThanOrEqual(r.ids.indexOf(id));
      if (b + 1 < list.length) expect(r.ids.indexOf(list.entryId(b + 1))).toBeGreaterThan(r.ids.indexOf(id));
    }
    expect(blockOfEntry(list, r.ids, "nope")).toBe(-1);
  });
});

describe("an empty session in the reader", () => {
  it("shows nothing and every key is harmless", async () => {
    const s = writeSession([]);
    cleanups.push(s.cleanup);
    let r = await open(s.path);
    expect(screen(r)).toEqual([]);
    for (const f of [
      toStart,
      (x: ReaderState) => moveCursor(x, 3),
      (x: ReaderState) => scroll(x, -5),
      cycleAllTools,
      toggleThinking,
      toggleOriginal,
      (x: ReaderState) => jumpMessage(x, 1),
      (x: ReaderState) => search(x, "a"),
      (x: ReaderState) => scrollWindow(x, 3),
    ]) {
      r = f(r);
    }
    expect(toolBlockAt(r)).toBe(-1);
    expect(branchInfo(r)).toBe("");
    expect(screen(r)).toEqual([]);
  });
});

describe("context edits in the reader (pi 1.5.2's S2 fixture)", () => {
  const FIX = join("fixtures", "pi-1.5.2");
  const expected = JSON.parse(readFileSync(join(FIX, "expected.json"), "utf8"));
  const prefix: string = expected.agentDir.replace(/\/agent$/, "");
  const S2 = join(FIX, expected.notes.S2.file.slice(prefix.length + 1));

  it("shows the branch as the model sees it (omitted, replaced), and as written with o", async () => {
    let r = toStart(await open(S2, undefined, 80, 60));
    const shown = screen(r).join("\n");
    expect(shown).toContain("⊘ omitted from the model's context");
    expect(shown).not.toContain("S2 secret prompt with api key");
    expect(shown).toContain("✎ edited");
    expect(shown).toContain("S2 replaced twice");
    r = toggleOriginal(r);
    const written = screen(r).join("\n");
    expect(written).toContain("S2 secret prompt with api key");
    expect(written).toContain("S2 answer one");
    expect(written).not.toContain("✎ edited");
  });
});

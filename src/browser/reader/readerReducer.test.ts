import type { Key } from "../keys/key.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSessionIndex, type SessionIndex } from "../../store/session-index.js";
import { K } from "../../../test/helpers/keys.js";
import { writeBranchedSession } from "../../../test/helpers/session-file.js";
import { makeSummary } from "../../../test/helpers/sessions.js";
import type { CommandId } from "../keys/commands.js";
import { type AppAction, type AppState, initialState, modeOf } from "../app/appReducer.js";
import { reduce, scanSummaries } from "../../../test/helpers/update.js";

// u1 ─ a1 ─┬─ u3 ─ a3 ─ l1   active
//          └─ u2 ─ a2
const file = writeBranchedSession();
afterAll(() => file.cleanup());
const CWD = "/home/u/proj";
let index: SessionIndex;
beforeAll(async () => {
  index = await loadSessionIndex(file.path, { skim: true });
});

const run = (s: AppState, ...actions: AppAction[]) => reduce(s, ...actions);
const cmd = (command: CommandId): AppAction => ({ type: "command", command });
const key = (k: readonly [string, Key]): AppAction => ({ type: "key", input: k[0], key: k[1] });
const type = (text: string): AppAction[] => [...text].map((c) => key(K.char(c)));
const cursorText = (s: AppState) => {
  const r = s.reader!;
  return r.transcript!.lines(r.cursor.block)[r.cursor.line].text;
};

function listed(): AppState {
  return run(
    initialState({ launchCwd: CWD }),
    scanSummaries([makeSummary({ path: file.path, cwd: CWD, firstMessage: "first question" })]),
  );
}

/** v on the list, the index loaded, the screen sized. */
function reading(): AppState {
  const s = run(listed(), key(K.char("v")));
  const load = s.effects.find((e) => e.type === "reader.load");
  expect(load).toMatchObject({ path: file.path });
  return run(
    s,
    { type: "reader.loaded", path: file.path, seq: s.reader!.loadSeq, index },
    { type: "reader.resize", width: 60, height: 8 },
  );
}

describe("the reader in the app's reducer", () => {
  it("Ctrl+C ends the program as an interrupt (130), as on the list", () => {
    expect(run(reading(), key(K.ctrlC)).effects.at(-1)).toEqual({
      type: "exit",
      outcome: { kind: "quit", interrupted: true },
    });
  });

  it("v opens the selected session's active branch at its end; q goes back to the list", () => {
    const s = reading();
    expect(modeOf(s)).toBe("reader");
    expect(s.reader!.ids).toEqual(["m0", "u1", "a1", "u3", "a3", "l1"]);
    expect(s.reader!.cursor).toEqual(s.reader!.transcript!.end);
    const back = run(s, key(K.char("q")));
    expect(modeOf(back)).toBe("list");
    expect(back.reader).toBeNull();
  });

  it("a stale load (another request) is ignored; a failed one says why", () => {
    const s = run(listed(), key(K.char("v")));
    expect(run(s, { type: "reader.loaded", path: file.path, seq: 99, index }).reader!.status).toBe("loading");
    expect(run(s, { type: "reader.loadFailed", path: file.path, seq: 1, error: "gone" }).reader).toMatchObject({
      status: "error",
      error: "gone",
    });
  });

  it("keys: g, j, }, /text Enter then n; Esc clears the search first, then leaves", () => {
    let s = run(reading(), key(K.char("g")));
    expect(cursorText(s)).toBe("You");
    s = run(s, key(K.char("j")));
    expect(cursorText(s)).toBe("  first question");
    s = run(s, key(K.char("}")));
    expect(cursorText(s)).toBe("Assistant · m");
    s = run(s, key(K.char("/")));
    expect(modeOf(s)).toBe("readerSearch");
    // Letters are typed into the field, not run as reader keys (n, q, j…).
    s = run(s, ...type("question"), key(K.enter));
    expect(modeOf(s)).toBe("reader");
    expect(s.reader!.query).toBe("question");
    expect(s.reader!.matches).toHaveLength(2);
    // The cursor is on the first match from the window's top on; n goes to the other one.
    const first = s.reader!.match;
    expect(cursorText(s)).toBe(first === 0 ? "  first question" : "  new branch question");
    s = run(s, key(K.char("n")));
    expect(s.reader!.match).toBe(1 - first);
    expect(cursorText(s)).toBe(first === 0 ? "  new branch question" : "  first question");
    // `/` again opens an empty field: a new word replaces the old search, never extends it.
    const again = run(s, key(K.char("/")), ...type("branch"), key(K.enter));
    expect(again.reader!.query).toBe("branch");
    s = run(s, key(K.escape));
    expect(s.reader!.query).toBe("");
    expect(modeOf(run(s, key(K.escape)))).toBe("list");
  });

  it("] switches to the sibling branch at the nearest branch point, at its first entry", () => {
    const s = run(reading(), key(K.char("]")));
    expect(s.reader!.ids).toEqual(["m0", "u1", "a1", "u2", "a2"]);
    expect(s.reader!.transcript!.lines(s.reader!.cursor.block)[1].text).toBe("  old branch question");
    expect(s.status?.text).toMatch(/sibling branch/);
  });

  it("v in the tree reads the branch through the selected entry, at it; q goes back to the tree on that entry", () => {
    let s = run(listed(), cmd("tree.open"));
    s = run(s, { type: "tree.loaded", path: file.path, seq: s.tree!.loadSeq, index });
    // Walk the tree cursor onto u2 (the old branch).
    const row = s.tree!.view!.rowOf.get("u2")!;
    s = { ...s, tree: { ...s.tree!, cursor: row } };
    s = run(s, key(K.char("v")), { type: "reader.resize", width: 60, height: 8 });
    expect(modeOf(s)).toBe("reader");
    // The tree's index is reused: no load.
    expect(s.effects.some((e) => e.type === "reader.load")).toBe(false);
    expect(s.reader!.ids).toEqual(["m0", "u1", "a1", "u2", "a2"]);
    expect(s.reader!.transcript!.blocks.entryId(s.reader!.cursor.block)).toBe("u2");
    s = run(s, key(K.char("q")));
    expect(modeOf(s)).toBe("tree");
    expect(s.tree!.cursor).toBe(row);
  });

  it("z on a line that is no tool says so; R and O report what they did", () => {
    let s = run(reading(), key(K.char("g")), key(K.char("z")));
    expect(s.status?.text).toMatch(/no tool call/);
    s = run(s, key(K.char("R")));
    expect(s.reader!.thinking).toBe(true);
    s = run(s, key(K.char("O")));
    expect(s.status?.text).toMatch(/no context edit/);
  });
});

describe("the mouse in the tree and the reader", () => {
  it("the wheel moves the tree's cursor over the tree and scrolls the entry preview over the preview; in the reader it scrolls the window", () => {
    let s = run(listed(), cmd("tree.open"));
    s = run(s, { type: "tree.loaded", path: file.path, seq: s.tree!.loadSeq, index });
    s = { ...s, tree: { ...s.tree!, cursor: 0 } };
    const down = run(s, { type: "mouse", kind: "wheel", pane: "list", dir: 1, at: 0 });
    expect(down.tree!.cursor).toBe(3);
    const pv = run(s, { type: "mouse", kind: "wheel", pane: "preview", dir: 1, at: 0 });
    expect(pv.tree!.cursor).toBe(0);
    expect(pv.tree!.previewTop).toBeGreaterThan(0);
    let r = run(reading(), key(K.char("g")));
    const top = r.reader!.top;
    r = run(r, { type: "mouse", kind: "wheel", pane: "reader", dir: 1, at: 0 });
    expect(r.reader!.transcript!.move(top, 3)).toEqual(r.reader!.top);
    r = run(r, { type: "mouse", kind: "click", pane: "reader", row: 2, at: 0 });
    expect(r.reader!.cursor).toEqual(r.reader!.transcript!.move(r.reader!.top, 2));
  });
});

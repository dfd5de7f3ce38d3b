import type { Key } from "../keys/key.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { K, key as inkKey } from "../../../test/helpers/keys.js";
import { assistant, entry, user, writeBranchedSession, writeSession } from "../../../test/helpers/session-file.js";
import { makeSummary } from "../../../test/helpers/sessions.js";
import { loadSessionIndex, type SessionIndex } from "../../store/session-index.js";
import type { CommandId } from "../keys/commands.js";
import { type AppAction, type AppState, initialState, modeOf } from "../app/appReducer.js";
import type { TrashRecord } from "../../actions/trash/log.js";
import { currentId } from "./treeState.js";
import { reduce, scanSummaries } from "../../../test/helpers/update.js";

// u1 ─ a1 ─┬─ u3 ─ a3 ─ l1 (label "keep" on u3; the leaf)   active
//          └─ u2 ─ a2
const file = writeBranchedSession();
afterAll(() => file.cleanup());

const CWD = "/tmp/proj";
let index: SessionIndex;
beforeAll(async () => {
  index = await loadSessionIndex(file.path, { skim: true });
});

const run = (s: AppState, ...actions: AppAction[]) => reduce(s, ...actions);
const cmd = (command: CommandId): AppAction => ({ type: "command", command });
const key = (k: readonly [string, Key]): AppAction => ({ type: "key", input: k[0], key: k[1] });
const type = (text: string): AppAction[] => [...text].map((c) => key(K.char(c)));
const ctrl = (c: string) => [c, inkKey({ ctrl: true })] as const;
const at = (s: AppState) => (s.tree ? currentId(s.tree) : undefined);
const rows = (s: AppState) => s.tree?.view?.rows.map((r) => r.id);
const lastEffect = (s: AppState) => s.effects[s.effects.length - 1];

function listed(print = false): AppState {
  const summary = makeSummary({ path: file.path, cwd: CWD, firstMessage: "first question" });
  return run(initialState({ launchCwd: CWD, print }), scanSummaries([summary]));
}

/** The tree open and loaded; the cursor starts on the leaf's nearest visible entry. */
function opened(print = false): AppState {
  const s = run(listed(print), cmd("tree.open"));
  return run(s, { type: "tree.loaded", path: file.path, seq: s.tree!.loadSeq, index });
}

describe("opening and closing", () => {
  it("t opens the tree and asks for a load; the index lands with the cursor on the active entry", () => {
    const s = run(listed(), key(K.char("t")));
    expect(modeOf(s)).toBe("tree");
    expect(s.tree?.status).toBe("loading");
    expect(lastEffect(s)).toMatchObject({ type: "tree.load", path: file.path, seq: 1 });
    const r = run(s, { type: "tree.loaded", path: file.path, seq: 1, index });
    expect(rows(r)).toEqual(["u1", "a1", "u3", "a3", "u2", "a2"]);
    expect(at(r)).toBe("a3"); // the leaf (a label entry) is hidden: its nearest visible ancestor
  });

  it("→ opens it too; a stale load is ignored; a failed load shows the error", () => {
    const s = run(listed(), key(K.right));
    expect(modeOf(s)).toBe("tree");
    expect(run(s, { type: "tree.loaded", path: file.path, seq: 99, index }).tree?.view).toBeNull();
    const failed = run(s, { type: "tree.loadFailed", path: file.path, seq: 1, error: "EACCES" });
    expect(failed.tree).toMatchObject({ status: "error", error: "EACCES" });
  });

  it("Ctrl+C ends the program as an interrupt (130), as on the list", () => {
    expect(lastEffect(run(opened(), key(ctrl("c"))))).toEqual({
      type: "exit",
      outcome: { kind: "quit", interrupted: true },
    });
  });

  it("q and Esc go back to the list with the same session selected", () => {
    for (const k of [K.char("q"), K.escape]) {
      const s = run(opened(), key(k));
      expect(modeOf(s)).toBe("list");
      expect(s.tree).toBeNull();
      expect(s.selectedPath).toBe(file.path);
    }
  });
});

describe("moving", () => {
  it("↑ ↓ j k g G PgUp PgDn move and clamp", () => {
    let s = opened();
    s = run(s, key(K.down), key(K.char("j")));
    expect(at(s)).toBe("a2");
    s = run(s, key(K.down));
    expect(at(s)).toBe("a2");
    s = run(s, key(K.char("g")));
    expect(at(s)).toBe("u1");
    s = run(s, key(K.up), key(K.char("G")));
    expect(at(s)).toBe("a2");
    s = run(s, key(K.pageUp));
    expect(at(s)).toBe("u1");
    s = run(s, key(K.pageDown));
    expect(at(s)).toBe("a2");
    s = run(s, key(K.char("k")));
    expect(at(s)).toBe("u2");
  });

  it("← goes to the branch point, folds it, climbs to the root, then leaves; → unfolds and goes down", () => {
    let s = opened();
    s = run(s, key(K.left));
    expect(at(s)).toBe("u3");
    s = run(s, key(K.char("h")));
    expect(s.tree?.folded.has("u3")).toBe(true);
    expect(rows(s)).toEqual(["u1", "a1", "u3", "u2", "a2"]);
    s = run(s, key(K.right));
    expect(s.tree?.folded.has("u3")).toBe(false);
    s = run(s, key(K.left), key(K.left));
    expect(at(s)).toBe("u1");
    s = run(s, key(K.char("l")));
    expect(at(s)).toBe("u3"); // down to the first child of the next branch point
    s = run(s, key(K.char("g")), key(K.left));
    expect(modeOf(s)).toBe("list");
  });

  it("[ and ] jump between sibling branches", () => {
    let s = run(opened(), key(K.char("]")));
    expect(at(s)).toBe("u2");
    s = run(s, key(K.char("]")));
    expect(at(s)).toBe("u2");
    s = run(s, key(K.char("[")));
    expect(at(s)).toBe("u3");
  });

  it("o and Ctrl+O cycle the filters; the cursor stays on its entry or its nearest visible ancestor", () => {
    let s = run(opened(), key(K.char("o")));
    expect(s.tree?.filter).toBe("no-tools");
    expect(at(s)).toBe("a3");
    s = run(s, key(ctrl("o")));
    expect(s.tree?.filter).toBe("user-only");
    expect(at(s)).toBe("u3");
    s = run(s, key(K.char("o")));
    expect(s.tree?.filter).toBe("labelled-only");
    expect(rows(s)).toEqual(["u3"]);
    s = run(s, key(K.char("o")));
    expect(s.tree?.filter).toBe("all");
    expect(rows(s)).toContain("l1");
    expect(run(s, key(K.char("o"))).tree?.filter).toBe("default");
  });

  it("J/K scroll the preview, clamped by what the preview reports", () => {
    let s = run(opened(), key(K.char("J")), key(K.char("J")));
    expect(s.tree?.previewTop).toBe(6);
    s = run(s, { type: "tree.previewMax", max: 4 });
    expect(s.tree?.previewTop).toBe(4);
    s = run(s, key(K.char("K")), key(K.char("K")));
    expect(s.tree?.previewTop).toBe(0);
    s = run(s, key(K.char("J")), key(K.down));
    expect(s.tree?.previewTop).toBe(0); // a new entry starts at its top
  });
});

describe("search", () => {
  it("/ types a query, Enter runs it in an effect; results move the cursor; n/N cycle; Esc clears, then leaves", () => {
    let s = run(opened(), key(K.char("/")));
    expect(modeOf(s)).toBe("treeSearch");
    s = run(s, ...type("branch Qu"), key(K.backspace), ...type("u"));
    expect(s.tree?.input?.text.value).toBe("branch Qu");
    expect(at(s)).toBe("a3"); // j, k … are typed, not moves
    s = run(s, key(K.enter));
    expect(modeOf(s)).toBe("tree");
    expect(s.tree?.searching).toBe(true);
    const e = lastEffect(s);
    expect(e).toMatchObject({ type: "tree.search", path: file.path, query: "branch Qu" });
    const seq = s.tree!.searchSeq;
    expect(run(s, { type: "tree.searched", path: file.path, seq: seq - 1, ids: ["u1"] }).tree?.matches).toEqual([]);
    s = run(s, { type: "tree.searched", path: file.path, seq, ids: ["u2", "u3"] });
    expect(s.tree?.searching).toBe(false);
    expect(at(s)).toBe("u2"); // the next match after the cursor (row order)
    s = run(s, key(K.char("n")));
    expect(at(s)).toBe("u3"); // wraps
    s = run(s, key(K.char("N")));
    expect(at(s)).toBe("u2");
    s = run(s, key(K.escape));
    expect(s.tree?.matches).toEqual([]);
    expect(modeOf(s)).toBe("tree");
    expect(modeOf(run(s, key(K.escape)))).toBe("list");
  });

  it("reports no matches and failures", () => {
    let s = run(opened(), key(K.char("/")), ...type("zzz"), key(K.enter));
    s = run(s, { type: "tree.searched", path: file.path, seq: s.tree!.searchSeq, ids: [] });
    expect(s.tree?.message?.text).toMatch(/no entry matches/);
    s = run(s, key(K.char("/")), key(K.escape));
    expect(modeOf(s)).toBe("tree");
    s = run(s, key(K.char("/")));
    expect(s.tree?.input?.text.value).toBe("zzz"); // the last query, to edit
    s = run(s, key(ctrl("u")), key(K.enter));
    expect(s.tree?.query).toBe(""); // an empty query clears
    s = run(s, key(K.char("/")), ...type("x"), key(K.enter));
    s = run(s, { type: "tree.searchFailed", path: file.path, seq: s.tree!.searchSeq, error: "EIO" });
    expect(s.tree?.message).toEqual({ text: "search failed: EIO", error: true });
  });
});

describe("writes", () => {
  it("L pre-fills a stored label holding escapes sanitized: no OSC title, clipboard or link reaches the field", async () => {
    const hostile = writeSession([
      user("u1", null, "q"),
      assistant("a1", "u1", "a"),
      entry("l1", "a1", {
        type: "label",
        targetId: "u1",
        label: "\x1b]0;PWNED\x07ok\x1b]52;c;cm0gLXJm\x07\x1b]8;;https://x.example\x1b\\go\x1b[31mred\u009b2J",
      }),
    ]);
    try {
      const idx = await loadSessionIndex(hostile.path, { skim: true });
      const summary = makeSummary({ path: hostile.path, cwd: CWD, firstMessage: "q" });
      let s = run(initialState({ launchCwd: CWD }), scanSummaries([summary]), cmd("tree.open"));
      s = run(s, { type: "tree.loaded", path: hostile.path, seq: s.tree!.loadSeq, index: idx });
      while (at(s) !== "u1") s = run(s, key(K.up));
      s = run(s, key(K.char("L")));
      expect(s.tree?.input?.kind).toBe("label");
      expect(s.tree?.input?.text.value).toBe("okgored");
    } finally {
      hostile.cleanup();
    }
  });

  it("L edits the label (pre-filled), Enter asks for the write; a recent change asks y/N; the written label reloads", () => {
    let s = run(opened(), key(K.left), key(K.char("L")));
    expect(modeOf(s)).toBe("treeLabel");
    expect(s.tree?.input).toMatchObject({ kind: "label", entryId: "u3", text: { value: "keep" } });
    s = run(s, key(ctrl("u")), ...type("new one"), key(K.enter));
    expect(modeOf(s)).toBe("tree");
    expect(lastEffect(s)).toMatchObject({
      type: "tree.write",
      write: { op: "label", entryId: "u3", label: "new one" },
      force: false,
    });
    expect(s.tree?.busy).toBe(true);
    s = run(s, { type: "tree.confirmWrite", path: file.path, write: { op: "label", entryId: "u3", label: "new one" } });
    expect(modeOf(s)).toBe("treeConfirm");
    const no = run(s, key(K.char("n")));
    expect(modeOf(no)).toBe("tree");
    expect(no.tree?.message?.text).toBe("nothing written");
    expect(modeOf(run(s, key(K.escape)))).toBe("tree");
    s = run(s, key(K.char("y")));
    expect(lastEffect(s)).toMatchObject({ type: "tree.write", force: true });
    s = run(s, {
      type: "tree.written",
      path: file.path,
      write: { op: "label", entryId: "u3", label: "new one" },
      wrote: true,
      mtimeMs: 123,
    });
    expect(s.tree).toMatchObject({ busy: false, ownMtime: 123, loadSeq: 2, message: { text: "labelled: new one" } });
    expect(lastEffect(s)).toMatchObject({ type: "tree.load", seq: 2 });
    s = run(s, { type: "tree.loaded", path: file.path, seq: 2, index });
    expect(at(s)).toBe("u3");
  });

  it("Esc and Ctrl+C cancel the label; a failed write shows the error", () => {
    expect(modeOf(run(opened(), key(K.char("L")), key(K.escape)))).toBe("tree");
    expect(modeOf(run(opened(), key(K.char("L")), key(ctrl("c"))))).toBe("tree");
    let s = run(opened(), key(K.char("L")), key(K.enter));
    s = run(s, { type: "tree.writeFailed", path: file.path, error: "v1 session" });
    expect(s.tree).toMatchObject({ busy: false, message: { text: "v1 session", error: true } });
  });

  it("Enter resumes at the entry: the write (only once the runner checked pi can start there), then straight to pi (or print in picker mode)", () => {
    let s = run(opened(), key(K.enter));
    expect(lastEffect(s)).toMatchObject({
      type: "tree.write",
      write: { op: "navigate", entryId: "a3" },
      cwd: "/tmp/proj",
    });
    s = run(s, { type: "tree.written", path: file.path, write: { op: "navigate", entryId: "a3" }, wrote: true });
    expect(lastEffect(s)).toMatchObject({
      type: "exit",
      outcome: { kind: "resume", path: file.path, cwd: "/tmp/proj" },
    });
    let p = run(opened(true), key(K.enter));
    expect(lastEffect(p)).not.toHaveProperty("cwd");
    p = run(p, { type: "tree.written", path: file.path, write: { op: "navigate", entryId: "a3" }, wrote: false });
    expect(lastEffect(p)).toMatchObject({ type: "exit", outcome: { kind: "print", path: file.path } });
  });

  it("Enter on a user message: the position goes to its parent and its text to the clipboard as pi starts; one key", () => {
    let s = run(opened(), key(K.up));
    expect(at(s)).toBe("u3");
    s = run(s, key(K.enter));
    expect(lastEffect(s)).toMatchObject({
      type: "tree.write",
      write: { op: "navigate", entryId: "a1", copyOf: { id: "u3" } },
    });
    s = run(s, {
      type: "tree.written",
      path: file.path,
      write: { op: "navigate", entryId: "a1", copyOf: index.byId.get("u3")! },
      wrote: true,
      copied: true,
    });
    expect(lastEffect(s)).toMatchObject({
      type: "exit",
      outcome: { kind: "resume", path: file.path, note: expect.stringMatching(/on the clipboard \(OSC 52\)/) },
    });
  });

  it("the first user message: the position goes to the entry before it (the model change here)", () => {
    let s = opened();
    while (at(s) !== "u1") s = run(s, key(K.up));
    s = run(s, key(K.enter));
    expect(lastEffect(s)).toMatchObject({
      type: "tree.write",
      write: { op: "navigate", entryId: "m0", copyOf: { id: "u1" } },
    });
  });

  it("f forks; the fork is selected in the list with a status, u takes it back; a refused fork says why", () => {
    let s = run(opened(), key(K.char("f")));
    expect(lastEffect(s)).toMatchObject({ type: "tree.fork", path: file.path, entryId: "a3" });
    const fork = makeSummary({ path: "/tmp/proj-store/fork.jsonl", cwd: CWD, parentSessionPath: file.path });
    const done = run(s, { type: "tree.forked", source: file.path, path: fork.path, summary: fork });
    expect(modeOf(done)).toBe("list");
    expect(done.selectedPath).toBe(fork.path);
    expect(done.sessions.get(fork.path)?.lineage).toMatchObject({ status: "resolved", path: file.path });
    expect(done.status?.text).toBe("forked → fork.jsonl · u undoes it");
    // u takes the fork back: to the trash, as a delete (and that is undoable in turn).
    const undone = run(done, key(K.char("u")));
    expect(lastEffect(undone)).toMatchObject({
      type: "trash",
      targets: [{ path: fork.path, ours: true }],
      undoesFork: true,
    });
    expect(undone.undo).toBeUndefined();
    const record: TrashRecord = {
      original: fork.path,
      trashedFile: "/trash/files/fork.jsonl",
      infoFile: "/trash/info/fork.jsonl.trashinfo",
      deletedAt: "2026-11-21T08:00:00",
      batch: "b1",
      bytes: 10,
    };
    const trashed = run(undone, {
      type: "lifecycle.trashed",
      targets: [{ path: fork.path, ours: true }],
      records: [record],
      undoesFork: true,
    });
    expect(trashed.status?.text).toBe("Fork undone (moved to the trash) — u brings it back");
    s = run(s, { type: "tree.forkFailed", path: file.path, error: "nothing to fork yet" });
    expect(s.tree).toMatchObject({ busy: false, message: { text: "nothing to fork yet", error: true } });
  });

  it("? opens the help over the tree and closes back to it; Ctrl+C quits", () => {
    let s = run(opened(), key(K.char("?")));
    expect(modeOf(s)).toBe("help");
    s = run(s, key(K.escape));
    expect(modeOf(s)).toBe("tree");
    expect(lastEffect(run(s, key(ctrl("c"))))).toMatchObject({ type: "exit", outcome: { kind: "quit" } });
  });
});

describe("the mouse in the tree", () => {
  const click = (row: number, at: number): AppAction => ({ type: "mouse", kind: "click", pane: "list", row, at });
  it("a click selects the entry under it; a second click on it soon after resumes there", () => {
    let s = run(opened(), click(1, 1000));
    expect(at(s)).toBe("a1");
    expect(s.effects.filter((e) => e.type === "tree.write")).toEqual([]);
    s = run(s, click(1, 1200));
    // The same as Enter on that entry.
    const enter = run(run(opened(), click(1, 0)), cmd("tree.resume"));
    expect(s.effects.filter((e) => e.type !== "tree.load")).toEqual(
      enter.effects.filter((e) => e.type !== "tree.load"),
    );
    expect(s.effects.length).toBeGreaterThan(1);
  });
});

describe("pi's /tree keys (issue 33)", () => {
  it("Ctrl+U, Ctrl+T, Ctrl+L, Ctrl+A turn their filter on and again back to default; Ctrl+D is default", () => {
    const s = opened();
    const filter = (x: AppState) => x.tree?.filter;
    expect(filter(run(s, key(ctrl("u"))))).toBe("user-only");
    expect(filter(run(s, key(ctrl("u")), key(ctrl("u"))))).toBe("default");
    expect(filter(run(s, key(ctrl("t"))))).toBe("no-tools");
    expect(filter(run(s, key(ctrl("l"))))).toBe("labelled-only");
    expect(filter(run(s, key(ctrl("a"))))).toBe("all");
    expect(filter(run(s, key(ctrl("a")), key(ctrl("d"))))).toBe("default");
    expect(filter(run(s, key(ctrl("o"))))).toBe("no-tools");
    expect(filter(run(s, key(["o", inkKey({ ctrl: true, shift: true })])))).toBe("all");
    // The user-only filter shows only user messages.
    const users = run(s, key(ctrl("u")));
    expect(rows(users)?.every((id) => index.byId.get(id)?.role === "user")).toBe(true);
    // Nothing of this is a delete or a page: the tree stays, nothing is asked to run.
    expect(run(s, key(ctrl("d"))).effects).toEqual(s.effects);
    expect(modeOf(run(s, key(ctrl("d"))))).toBe("tree");
  });
  it("Shift+T shows label times, Ctrl+X copies the entry as y does, Ctrl+← folds or goes up but never leaves", () => {
    const s = opened();
    const timed = run(s, key(K.char("T")));
    expect(timed.tree?.labelTimes).toBe(true);
    expect(run(timed, key(K.char("T"))).tree?.labelTimes).toBe(false);
    expect(lastEffect(run(s, key(ctrl("x"))))).toEqual(lastEffect(run(s, key(K.char("y")))));
    let t = run(s, cmd("tree.top"));
    for (let i = 0; i < 5; i++) t = run(t, key(["", inkKey({ leftArrow: true, ctrl: true })]));
    expect(modeOf(t)).toBe("tree");
    // ← at the top leaves, as before.
    expect(modeOf(run(t, key(K.left), key(K.left), key(K.left)))).toBe("list");
  });
});

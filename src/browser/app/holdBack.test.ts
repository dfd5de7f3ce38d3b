import { describe, expect, it } from "vitest";
import { K } from "../../../test/helpers/keys.js";
import { makeSessions } from "../../../test/helpers/sessions.js";
import { reduce, scanDone, scanSummaries } from "../../../test/helpers/update.js";
import { type AppAction, type AppState, initialState, selectedSession, type Step, update } from "./appReducer.js";
import { fullTextKey, NO_LONGER_MATCHES } from "../list/fullText.js";
import type { VerifiedAction, VerifyEffect } from "./verifyTypes.js";

const CWD = "/home/u/proj";
const key = (k: readonly [string, unknown]): AppAction => ({ type: "key", input: k[0], key: k[1] as never });

/** A list searched for "parser": the first hit checked against its file, the second listed as the index names it. */
function searched(print = false): { s: AppState; checked: string; named: string } {
  const sessions = makeSessions(3, { cwd: CWD });
  const [checked, named] = [sessions[0].path, sessions[1].path];
  let s: AppState = reduce(
    initialState({ launchCwd: CWD, query: "parser", print }),
    scanSummaries(sessions),
    scanDone(),
  );
  const k = fullTextKey(s.query, s.scope, false)!;
  s = reduce(
    s,
    { type: "fulltext.start", key: k, total: 3 },
    {
      type: "fulltext.hits",
      key: k,
      hits: [
        [checked, { snippet: "a parser", held: [true] }],
        [named, { snippet: "the parser", held: [true] }],
      ],
      searched: 3,
      unchecked: [named],
      confirmed: [checked],
    },
  );
  const { effects: _, ...plain } = s as AppState & { effects?: unknown };
  return { s: plain as AppState, checked, named };
}

function onNamed(s: AppState, named: string): AppState {
  const at = s.rows.findIndex((r) => r.session.path === named);
  expect(at).toBeGreaterThanOrEqual(0);
  const [n] = update(s, { type: "command", command: at > s.cursor ? "list.down" : "list.up" });
  expect(selectedSession(n)?.path).toBe(named);
  return n;
}

/** Its file's verdict on the action held for `path`, under the search `s` is showing. */
function verdict(s: AppState, path: string, v: Omit<VerifiedAction, "type" | "key" | "path">): Step {
  return update(s, { type: "fulltext.verified", key: s.fullText.key!, path, ...v });
}

/** The row menu opened over `s` for the session at `path`. */
function withMenu(s: AppState, path: string): AppState {
  return { ...s, stack: [...s.stack, { kind: "menu" as const, path, screen: "list" as const }] };
}

describe("an action on a row its file has not yet confirmed", () => {
  it("acts at once on a checked row", () => {
    const { s, checked } = searched();
    expect(selectedSession(s)?.path).toBe(checked);
    const [, effects] = update(s, { type: "command", command: "session.resume" });
    expect(effects.map((e) => e.type)).toEqual(["resume"]);
  });

  it("waits for the file: a verify effect carrying the action, the state unchanged", () => {
    const { s: s0, named } = searched();
    const s = onNamed(s0, named);
    const enter = key(K.enter);
    const [after, effects] = update(s, enter);
    expect(after).toBe(s);
    expect(effects).toHaveLength(1);
    const v = effects[0] as VerifyEffect;
    expect(v).toMatchObject({ type: "fulltext.verify", path: named, key: s.fullText.key, action: enter });
    expect(v.terms.map((t) => t.kind)).toEqual(["word"]);
  });

  it("the file confirming it: the action replayed on that row", () => {
    const { s: s0, named } = searched();
    const s = onNamed(s0, named);
    const [after, effects] = verdict(s, named, { holds: true, action: key(K.enter) });
    expect(effects).toEqual([{ type: "resume", path: named, cwd: CWD, launchCwd: CWD }]);
    expect(after.fullText.unchecked.has(named)).toBe(false);
    // Checked now: the next action acts at once.
    expect(update(after, { type: "command", command: "copy.path" })[1].map((e) => e.type)).not.toContain(
      "fulltext.verify",
    );
  });

  it("the file turning it down: nothing done, the row kept saying it no longer matches, a note", () => {
    const { s: s0, named } = searched();
    const s = onNamed(s0, named);
    const [after, effects] = verdict(s, named, {
      holds: false,
      action: { type: "command", command: "session.delete" },
    });
    expect(effects).toEqual([]);
    expect(after.stack.map((l) => l.kind)).toEqual(s.stack.map((l) => l.kind));
    expect(selectedSession(after)?.path).toBe(named);
    expect(String(after.fullText.hits.get(named)?.snippet)).toBe(NO_LONGER_MATCHES);
    expect(after.status?.text).toMatch(/not done.*no longer matches the search/);
    // The cursor leaving it: gone from the list.
    const [moved] = update(after, { type: "command", command: "list.up" });
    expect(moved.rows.map((r) => r.session.path)).not.toContain(named);
  });

  it("the picker's Enter on such a row waits too", () => {
    const { s: s0, named } = searched(true);
    const s = onNamed(s0, named);
    const [, effects] = update(s, key(K.enter));
    expect(effects.map((e) => e.type)).toEqual(["fulltext.verify"]);
  });

  it("moving, and typing the query, never wait", () => {
    const { s: s0, named } = searched(true);
    const s = onNamed(s0, named);
    expect(update(s, { type: "command", command: "list.up" })[1]).toEqual([]);
    expect(update(s, key(K.char("x")))[1]).toEqual([]);
  });

  it("a hit confirmed by its file (a slice) or taken back is no longer to check", () => {
    const { s, named, checked } = searched();
    const k = s.fullText.key!;
    const [c] = update(s, { type: "fulltext.hits", key: k, hits: [], confirmed: [named] });
    expect(c.fullText.unchecked.size).toBe(0);
    expect(c.fullText.hits).toBe(s.fullText.hits);
    const cur = s.sessions.get(named)!;
    const [d] = update(s, {
      type: "fulltext.hits",
      key: k,
      hits: [],
      drop: [{ path: named, bytes: cur.bytes, mtimeMs: cur.mtimeMs }],
    });
    expect(d.fullText.unchecked.size).toBe(0);
    expect(s.fullText.unchecked.has(named)).toBe(true);
    expect(s.fullText.unchecked.has(checked)).toBe(false);
  });

  it("a double click on such a row waits too (held as it came), a single click selects at once", () => {
    const { s: s0, named } = searched();
    const at = s0.rows.findIndex((r) => r.session.path === named);
    const click = (t: number): AppAction => ({ type: "mouse", kind: "click", pane: "list", row: at, at: t });
    const [one, first] = update(s0, click(1000));
    expect(first).toEqual([]);
    expect(selectedSession(one)?.path).toBe(named);
    const [, second] = update(one, click(1100));
    expect(second).toMatchObject([{ type: "fulltext.verify", path: named, action: click(1100) }]);
    // Its file confirming it: the double click resumes that session.
    const [, replayed] = verdict(one, named, { holds: true, action: click(1100) });
    expect(replayed).toEqual([{ type: "resume", path: named, cwd: CWD, launchCwd: CWD }]);
  });

  it("a double click whose rows re-sorted between the clicks resumes nothing it was not clicked twice on, nor unchecked", () => {
    const { s: s0, named, checked } = searched();
    const at = s0.rows.findIndex((r) => r.session.path === checked);
    const click = (row: number, t: number): AppAction => ({ type: "mouse", kind: "click", pane: "list", row, at: t });
    const [one] = update(s0, click(at, 1000));
    // The named (unchecked) session comes to the row clicked: pi wrote to it, the list is most recent first.
    const moved = one.rows.map((r) => r.session);
    const newer = { ...moved.find((x) => x.path === named)!, mtimeMs: Date.parse("2025-02-01T00:00:00Z") };
    const [two] = update(one, scanSummaries([{ ...newer, modified: new Date(newer.mtimeMs) } as never]));
    expect(two.rows[at].session.path).toBe(named);
    // The second click lands on another session: a first click on it, nothing resumed, nothing held.
    const [three, effects] = update(two, click(at, 1100));
    expect(effects).toEqual([]);
    expect(selectedSession(three)?.path).toBe(named);
    // The session first clicked, clicked again on its new row: resumed (it is checked).
    const back = two.rows.findIndex((r) => r.session.path === checked);
    expect(update(two, click(back, 1100))[1]).toMatchObject([{ type: "resume", path: checked }]);
  });

  it("the menu acts on the session it was opened for, not on the row selected since", () => {
    const { s: s0, named, checked } = searched();
    const s = withMenu(s0, named);
    expect(selectedSession(s)?.path).toBe(checked);
    // Unchecked: the menu's choice (and its key) waits for its file, on the menu's session.
    const choose: AppAction = { type: "choose", command: "copy.path" };
    expect(update(s, choose)[1]).toMatchObject([{ type: "fulltext.verify", path: named, action: choose }]);
    expect(update(s, key(K.char("p")))[1]).toMatchObject([{ type: "fulltext.verify", path: named }]);
    // The menu's own keys and its list's keys (they choose) act on no session themselves.
    expect(update(s, key(K.down))[1]).toEqual([]);
    const [after, effects] = verdict(s, named, { holds: true, action: { type: "choose", command: "session.resume" } });
    expect(effects).toEqual([{ type: "resume", path: named, cwd: CWD, launchCwd: CWD }]);
    expect(after.stack.some((l) => l.kind === "menu")).toBe(false);
    // Checked: at once, still on its own session.
    const ok = { ...s, fullText: { ...s.fullText, unchecked: new Set<string>() } };
    expect(update(ok, { type: "choose", command: "session.resume" })[1]).toEqual([
      { type: "resume", path: named, cwd: CWD, launchCwd: CWD },
    ]);
    // A menu action that acts on no session does not wait.
    expect(update(s, { type: "choose", command: "sort.cycle" })[1]).toEqual([]);
  });

  it("the menu's session no longer listed: nothing done, a note", () => {
    const { s: s0 } = searched();
    const s = withMenu(s0, "/store/gone.jsonl");
    const [after, effects] = update(s, { type: "choose", command: "session.resume" });
    expect(effects).toEqual([]);
    expect(after.status?.text).toMatch(/not done.*no longer listed/);
  });

  it("a held action's verdict is the user's action: a note goes as after a key, a wish to reselect is dropped", () => {
    const { s: s0, named } = searched();
    const s = {
      ...onNamed(s0, named),
      status: { text: "q quits", tone: "note" as const },
      reselect: "/store/later.jsonl",
    };
    const [after] = verdict(s, named, { holds: true, action: key(K.enter) });
    expect(after.status).toBeUndefined();
    expect(after.reselect).toBeUndefined();
  });

  it("a file that could not be read is no verdict: nothing done, the hit kept and still held, a note", () => {
    const { s: s0, named } = searched();
    const s = onNamed(s0, named);
    const [after, effects] = verdict(s, named, { holds: false, unread: "EACCES", action: key(K.enter) });
    expect(effects).toEqual([]);
    expect(after.fullText.hits.get(named)?.snippet).toBe("the parser");
    expect(after.fullText.unchecked.has(named)).toBe(true);
    expect(after.status?.text).toMatch(/not done.*could not be read \(EACCES\)/);
  });

  it("an action on the row its file just turned down is refused until the cursor leaves it: nothing picked, no delete, no mark", () => {
    for (const print of [false, true]) {
      const { s: s0, named } = searched(print);
      const s = declinedOn(s0, named);
      // The picker's Enter picks nothing, d opens no delete, space marks nothing (and stays).
      const actions: AppAction[] = [
        key(K.enter),
        { type: "command", command: "session.delete" },
        { type: "command", command: "session.mark" },
        { type: "command", command: "session.mark" },
        { type: "command", command: "menu.open" },
      ];
      for (const a of actions) {
        const [after, effects] = update(s, a);
        expect(effects).toEqual([]);
        expect(after.stack).toBe(s.stack);
        expect(after.marks.size).toBe(0);
        expect(selectedSession(after)?.path).toBe(named);
        expect(after.status?.text).toMatch(/not done.*no longer matches the search/);
      }
      // Space over rows: the refused row is not marked by the next space either.
      let m = s;
      for (let i = 0; i < 2; i++) m = update(m, { type: "command", command: "session.mark" })[0];
      expect(m.marks.has(named)).toBe(false);
      // Moving on: the row is gone, and actions on the rows left act.
      const [moved] = update(s, { type: "command", command: "list.up" });
      expect(moved.rows.map((r) => r.session.path)).not.toContain(named);
      const left = selectedSession(moved)!.path;
      expect(update(moved, { type: "command", command: "copy.path" })[1]).toEqual([
        expect.objectContaining({ type: "copy", text: left }),
      ]);
    }
  });

  it("unmarking is never held nor refused: a marked row whose hit is unchecked, or turned down, is unmarked at once", () => {
    const { s: s0, named } = searched();
    const marked = (x: AppState): AppState => ({ ...x, marks: new Set([named]) });
    const mark: AppAction = { type: "command", command: "session.mark" };
    // Unchecked: no verify effect, unmarked at once.
    const [unmarked, effects] = update(marked(onNamed(s0, named)), mark);
    expect(effects).toEqual([]);
    expect(unmarked.marks.size).toBe(0);
    // Turned down by its file: unmarked, not refused.
    const [after, none] = update(marked(declinedOn(s0, named)), mark);
    expect(none).toEqual([]);
    expect(after.marks.size).toBe(0);
    // The menu's mark of its own (marked, unchecked) session too.
    const menu = withMenu(marked(s0), named);
    const [fromMenu, menuEffects] = update(menu, { type: "choose", command: "session.mark" });
    expect(menuEffects).toEqual([]);
    expect(fromMenu.marks.size).toBe(0);
    // Marking (not unmarking) an unchecked row still waits for its file.
    expect(update(onNamed(s0, named), mark)[1].map((e) => e.type)).toEqual(["fulltext.verify"]);
  });

  it("with marks set, d and D (and the menu's delete) act on the marks: never held nor refused for the row selected", () => {
    const { s: s0, named, checked } = searched();
    const marked = (x: AppState): AppState => ({ ...x, marks: new Set([checked]) });
    for (const command of ["session.delete", "session.deletePermanently"] as const) {
      for (const on of [marked(onNamed(s0, named)), marked(declinedOn(s0, named))]) {
        const [after, effects] = update(on, { type: "command", command });
        expect(effects).toEqual([]);
        const top = after.stack[after.stack.length - 1];
        expect(top).toMatchObject({ kind: "delete", bulk: true });
        expect(top.kind === "delete" && top.targets.map((t) => t.path)).toEqual([checked]);
      }
      const menu = withMenu(marked(s0), named);
      const [fromMenu, menuEffects] = update(menu, { type: "choose", command });
      expect(menuEffects).toEqual([]);
      expect(fromMenu.stack[fromMenu.stack.length - 1]).toMatchObject({ kind: "delete", bulk: true });
    }
    // No marks: the delete of an unchecked row still waits for its file.
    expect(update(onNamed(s0, named), { type: "command", command: "session.delete" })[1].map((e) => e.type)).toEqual([
      "fulltext.verify",
    ]);
  });

  it("a menu's choice while the terminal is too small does nothing (as a key): not run on an unchecked session", () => {
    const { s: s0, named } = searched();
    const menu = withMenu(s0, named);
    const [small] = update(menu, { type: "viewport", pageSize: 1, visible: false });
    const choose: AppAction = { type: "choose", command: "session.resume" };
    const [after, effects] = update(small, choose);
    expect(effects).toEqual([]);
    expect(after).toBe(small);
    // Big enough again: held for its file.
    const [big] = update(small, { type: "viewport", pageSize: 10, visible: true });
    expect(update(big, choose)[1]).toMatchObject([{ type: "fulltext.verify", path: named }]);
  });

  it("a file too big to read at once is no verdict: nothing done, the hit kept and still held, a note to press again", () => {
    const { s: s0, named } = searched();
    const s = onNamed(s0, named);
    const [after, effects] = verdict(s, named, { holds: false, large: 99 * 1024 * 1024, action: key(K.enter) });
    expect(effects).toEqual([]);
    expect(after.fullText.hits.get(named)?.snippet).toBe("the parser");
    expect(after.fullText.unchecked.has(named)).toBe(true);
    expect(after.fullText.declined).toBeNull();
    expect(after.status?.text).toMatch(
      /not done: a large session \(99 MB\): press again once the search has checked it/,
    );
    // Checked by the search since: the action goes on.
    const [checked] = update(after, { type: "fulltext.hits", key: s.fullText.key!, hits: [], confirmed: [named] });
    expect(update(checked, key(K.enter))[1].map((e) => e.type)).toEqual(["resume"]);
  });
});

/** `named` selected, its hit just taken back by its file (FullTextState.declined). */
function declinedOn(s0: AppState, named: string): AppState {
  const s = onNamed(s0, named);
  const [after] = verdict(s, named, { holds: false, action: { type: "command", command: "copy.path" } });
  expect(after.fullText.declined).toBe(named);
  return { ...after, status: undefined };
}

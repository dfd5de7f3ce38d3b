import { describe, expect, it, vi } from "vitest";
import type { Key } from "../keys/key.js";
import { K } from "../../../test/helpers/keys.js";
import { makeSessions } from "../../../test/helpers/sessions.js";
import type { SessionSummary } from "../../model/types.js";
import { type AppAction, type AppState, initialState, selectedSession } from "./appReducer.js";
import { reduce, scanDone, scanSummaries } from "../../../test/helpers/update.js";
import { fullTextKey } from "../list/fullText.js";
import * as derive from "../list/derive.js";

// Counted, not changed: how many times the rows are derived (the cost a burst should pay once).
vi.mock("../list/derive.js", async (actual) => {
  const real = await actual<typeof import("../list/derive.js")>();
  return { ...real, deriveRows: vi.fn(real.deriveRows) };
});

/*
 * Keys read together (`more`: others wait behind them): a query typed then is derived once,
 * at the last key, and every key still acts as typed alone (appReducer's update).
 */

const CWD = "/home/u/proj";
const key = (k: readonly [string, Key], more = false): AppAction => ({
  type: "key",
  input: k[0],
  key: k[1],
  ...(more ? { more } : {}),
});
/** `text` typed, each key with `more` but the last when `together`. */
const type = (text: string, together: boolean, last = !together): AppAction[] =>
  [...text].map((c, i, all) => key(K.char(c), together && (i < all.length - 1 || !last)));
const paths = (s: AppState) => s.rows.map((r) => r.session.path);
const view = (s: AppState) => ({
  rows: paths(s),
  cursor: s.cursor,
  selected: s.selectedPath,
  query: s.search.value,
  userSelected: s.userSelected,
});

/**
 * Ids of letters only: a query's digits match a session's id too, and makeSummary numbers ids
 * by how many sessions the file made before (a test added above another changed its rows).
 */
const lettered = (x: SessionSummary, i: number): SessionSummary => {
  const id = `cafe${String(i).replace(/\d/g, (d) => "abcdefghij"[Number(d)])}-aaaa-4bbb-8ccc-eeeeeeeeeeee`;
  return { ...x, id, path: x.path.replace(x.id, id) };
};

function searching() {
  const sessions = makeSessions(30, { cwd: CWD }).map(lettered);
  return reduce(initialState({ launchCwd: CWD }), scanSummaries(sessions), key(K.char("/")));
}

describe("keys read together into the search bar", () => {
  it("leaves the rows as they were until the last key, which derives what typing key by key does", () => {
    const s = searching();
    const mid = reduce(s, ...type("session 1", true, false));
    // Not derived: the rows are the list's still, the query the one typed.
    expect(mid.rows).toBe(s.rows);
    expect(mid.rowsPutOff).toBe(true);
    expect(mid.search.value).toBe("session 1");
    const together = reduce(mid, key(K.char("2")));
    const alone = reduce(s, ...type("session 12", false));
    expect(together.rowsPutOff).toBeUndefined();
    expect(alone.rows.length).toBeGreaterThan(0);
    expect(alone.rows.length).toBeLessThan(s.rows.length);
    expect(view(together)).toEqual(view(alone));
  });

  it("derives the rows once at the last key of a query typed together", () => {
    const s = searching();
    const mid = reduce(s, ...type("session 1", true, false));
    const deriveRows = vi.mocked(derive.deriveRows);
    deriveRows.mockClear();
    const together = reduce(mid, key(K.char("2")));
    // Deriving the rows put off ("session 1") and then those of the edit ("session 12") was twice.
    expect(deriveRows).toHaveBeenCalledTimes(1);
    expect(view(together)).toEqual(view(reduce(s, ...type("session 12", false))));
  });

  it("derives the rows once at a scan's batch that arrives while they are put off", () => {
    const s = searching();
    const more = makeSessions(3, { cwd: CWD, firstMessage: "session 2 again" }).map((x, i) => lettered(x, 100 + i));
    const mid = reduce(s, ...type("session 2", true, false));
    const deriveRows = vi.mocked(derive.deriveRows);
    deriveRows.mockClear();
    const together = reduce(mid, scanSummaries(more));
    // The batch derives the rows itself: those put off first were derived for nothing.
    expect(deriveRows).toHaveBeenCalledTimes(1);
    expect(view(together)).toEqual(view(reduce(s, ...type("session 2", false), scanSummaries(more))));
  });

  it("does a key that is not a query edit on the rows of the query typed before it", () => {
    const s = searching();
    for (const k of [K.down, K.enter, K.escape]) {
      const together = reduce(s, ...type("session 2", true, false), key(k, true));
      const alone = reduce(s, ...type("session 2", false), key(k));
      expect(together.rowsPutOff).toBeUndefined();
      expect(view(together)).toEqual(view(alone));
      expect(selectedSession(together)?.path).toBe(selectedSession(alone)?.path);
    }
  });

  it("redoes a list move read behind query edits on the new query's rows, where the old rows left it nothing to do", () => {
    // The old rows none ("qqqq"): ↓ on them did nothing, and was kept so.
    const empty = reduce(searching(), ...type("qqqq", false));
    expect(empty.rows).toEqual([]);
    const burst = [K.backspace, K.backspace, K.backspace, K.backspace, K.down, K.down];
    const together = reduce(empty, ...burst.map((k, i) => key(k, i < burst.length - 1)));
    const alone = reduce(empty, ...burst.map((k) => key(k)));
    expect(alone.cursor).toBe(2);
    expect(view(together)).toEqual(view(alone));
    expect(selectedSession(together)?.path).toBe(selectedSession(alone)?.path);
  });

  it("redoes a list move read behind a query edit on the new query's rows, where the old rows were one", () => {
    // One old row: ↓ there only said the user chose it (userSelected), the cursor stayed.
    const one = reduce(searching(), ...type("session 29", false));
    expect(one.rows).toHaveLength(1);
    const burst = [K.backspace, K.down, K.down];
    const together = reduce(one, ...burst.map((k, i) => key(k, i < burst.length - 1)));
    const alone = reduce(one, ...burst.map((k) => key(k)));
    expect(alone.rows.length).toBeGreaterThan(3);
    expect(alone.cursor).toBe(2);
    expect(view(together)).toEqual(view(alone));
    expect(selectedSession(together)?.path).toBe(selectedSession(alone)?.path);
  });

  it("derives the rows before any other action is taken in, one that derives none itself too", () => {
    const s = searching();
    const more = makeSessions(3, { cwd: CWD, firstMessage: "session 2 again" });
    const others: AppAction[] = [
      scanSummaries(more),
      // These two derive no rows of their own: the rows put off are derived by update.
      { type: "viewport", pageSize: 7 },
      { type: "status.fade", status: { text: "gone already", tone: "note" } },
    ];
    for (const other of others) {
      const mid = reduce(s, ...type("session 2", true, false));
      expect(mid.rowsPutOff).toBe(true);
      const together = reduce(mid, other);
      const alone = reduce(s, ...type("session 2", false), other);
      expect(together.rowsPutOff, other.type).toBeUndefined();
      expect(together.rows.length, other.type).toBeLessThan(s.rows.length);
      expect(view(together), other.type).toEqual(view(alone));
    }
  });

  it("derives the rows at a query edit while the selected row is a hit its file turned down (it goes as the cursor leaves it)", () => {
    const sessions = makeSessions(3, { cwd: CWD });
    const [first, second] = sessions;
    let s = reduce(initialState({ launchCwd: CWD, query: "parser" }), scanSummaries(sessions), scanDone());
    const k = fullTextKey(s.query, s.scope, false)!;
    const hit = { snippet: "the parser", held: [true] };
    s = reduce(
      s,
      key(K.char("/")),
      { type: "fulltext.start", key: k, total: 3 },
      {
        type: "fulltext.hits",
        key: k,
        hits: [
          [first.path, hit],
          [second.path, hit],
        ],
        searched: 3,
      },
      key(K.down),
      // The selected hit's file turned it down: kept until the cursor leaves it.
      {
        type: "fulltext.hits",
        key: k,
        hits: [],
        drop: [{ path: second.path, bytes: second.bytes, mtimeMs: second.mtimeMs }],
      },
    );
    expect(s.fullText.declined).toBe(second.path);
    expect(paths(s)).toEqual([first.path, second.path]);
    // A space: the same words, the same hits; the selection goes to the best hit, off the turned-down one.
    const together = reduce(s, key(K.char(" "), true), key(K.down));
    const alone = reduce(s, key(K.char(" ")), key(K.down));
    expect(paths(alone)).toEqual([first.path]);
    expect(view(together)).toEqual(view(alone));
    expect(together.fullText.declined).toBeNull();
  });
});

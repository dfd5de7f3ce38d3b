import { describe, expect, it } from "vitest";
import { key as mk } from "../../../test/helpers/keys.js";
import { makeSummary } from "../../../test/helpers/sessions.js";
import { parseQuery } from "../../search/query.js";
import type { CommandId } from "../keys/commands.js";
import { type AppAction, type AppState, initialState } from "../app/appReducer.js";
import { deriveRows } from "./derive.js";
import { type FullTextAction, fullTextKey, fullTextNote, NO_LONGER_MATCHES } from "./fullText.js";
import { reduce, scanSummaries } from "../../../test/helpers/update.js";
import { bodyHit } from "../../../test/helpers/body-hit.js";

const CWD = "/home/u/proj";
const run = (s: AppState, ...actions: AppAction[]) => reduce(s, ...actions);
const cmd = (command: CommandId): AppAction => ({ type: "command", command });
type HitsAction = Extract<FullTextAction, { type: "fulltext.hits" }>;
const titles = (s: { rows: AppState["rows"] }) => s.rows.map((r) => r.session.firstMessage);

const a = makeSummary({ path: "/a", cwd: CWD, firstMessage: "refactor the parser", modified: new Date(1000) });
const b = makeSummary({ path: "/b", cwd: CWD, firstMessage: "fix login", modified: new Date(3000) });
const c = makeSummary({ path: "/c", cwd: "/elsewhere", firstMessage: "deploy", modified: new Date(2000) });
const sessions = new Map([a, b, c].map((x) => [x.path, x]));
/** A drop as the check that turned the session down saw its file. */
const seenAs = (x: typeof c, bytes = x.bytes) => ({ path: x.path, bytes, mtimeMs: x.mtimeMs });

describe("deriveRows with full-text hits", () => {
  it("adds text-only matches with their snippet, ranked after first-message hits (what the row shows)", () => {
    const q = parseQuery("parser");
    const { rows } = deriveRows(sessions, {
      scope: "all",
      cwd: CWD,
      query: q,
      sort: "recent",
      fullText: new Map([
        ["/b", bodyHit("…the parser broke")],
        ["/a", bodyHit("refactor the parser")],
      ]),
    });
    // /b is newer, but only its conversation holds the word; /a's title does (QA).
    expect(rows.map((r) => r.session.path)).toEqual(["/a", "/b"]);
    expect(rows[1].snippet).toBe("…the parser broke");
    expect(rows[0].snippet).toBeUndefined(); // its title says it already
  });

  it("text-only matches rank after name matches and before scattered letters of a folder", () => {
    const named = makeSummary({ path: "/n", cwd: CWD, name: "parser rewrite", modified: new Date(1) });
    const folder = makeSummary({ path: "/f", cwd: "/p/a/r/s/e/r", firstMessage: "x", modified: new Date(9000) });
    const all = new Map([named, b, folder].map((x) => [x.path, x]));
    const { rows } = deriveRows(all, {
      scope: "all",
      cwd: CWD,
      query: parseQuery("parser"),
      sort: "recent",
      fullText: new Map([["/b", bodyHit("…the parser broke")]]),
    });
    expect(rows.map((r) => r.session.path)).toEqual(["/n", "/b", "/f"]);
  });

  it("field filters still apply to text-only matches", () => {
    const q = parseQuery("cwd:elsewhere parser");
    const ft = new Map([
      ["/b", bodyHit("x")],
      ["/c", bodyHit("y")],
    ]);
    const { rows } = deriveRows(sessions, { scope: "all", cwd: CWD, query: q, sort: "recent", fullText: ft });
    expect(rows.map((r) => r.session.path)).toEqual(["/c"]);
  });

  it("keeps the snippet in threaded sort", () => {
    const { rows } = deriveRows(sessions, {
      scope: "all",
      cwd: CWD,
      query: parseQuery("zzz"),
      sort: "threaded",
      fullText: new Map([["/c", bodyHit("zzz here")]]),
    });
    expect(rows).toHaveLength(1);
    expect(rows[0].snippet).toBe("zzz here");
  });
});

describe("reducer: full-text results", () => {
  function searching(text: string): AppState {
    let s = run(initialState({ launchCwd: CWD, all: true }), scanSummaries([a, b, c]), cmd("search.start"));
    for (const ch of text) s = run(s, { type: "key", input: ch, key: mk() });
    return s;
  }

  /** "login" typed, its full-text search started over the three sessions and its first hits in. */
  function loginFirstHits(first: Omit<HitsAction, "type" | "key">): AppState {
    const s = searching("login");
    const key = fullTextKey(s.query, s.scope, false)!;
    return run(s, { type: "fulltext.start", key, total: 3 }, { type: "fulltext.hits", key, ...first });
  }

  /** /a and /c answered as the index names them, both left to check against their files. */
  const aAndCToCheck = {
    hits: [
      ["/a", bodyHit("login in text")],
      ["/c", bodyHit("login named")],
    ],
    searched: 3,
    checking: 2,
  } as const;

  it("applies hits of the current search only", () => {
    let s = searching("login");
    expect(titles(s)).toEqual(["fix login"]);
    const key = fullTextKey(s.query, s.scope, false)!;
    // Stale hits (another key) are ignored.
    s = run(s, { type: "fulltext.hits", key: "old", hits: [["/a", bodyHit("login in text")]], searched: 1 });
    expect(titles(s)).toEqual(["fix login"]);
    s = run(
      s,
      { type: "fulltext.start", key, total: 3 },
      { type: "fulltext.hits", key, hits: [["/a", bodyHit("login in text")]], searched: 2 },
    );
    expect(titles(s)).toEqual(["fix login", "refactor the parser"]);
    expect(fullTextNote(s.fullText, s.query, s.scope)).toBe("full text 2/3…");
    s = run(s, { type: "fulltext.done", key });
    expect(fullTextNote(s.fullText, s.query, s.scope)).toBe("full text");
    // A new query drops them until its own search reports.
    s = run(s, { type: "key", input: "x", key: mk() });
    expect(titles(s)).toEqual([]);
  });

  it("answered as the index names the hits, then checking them: a hit its file turns down is taken back", () => {
    let s = loginFirstHits(aAndCToCheck);
    const key = fullTextKey(s.query, s.scope, false)!;
    expect(titles(s)).toEqual(["fix login", "deploy", "refactor the parser"]);
    // Every session answered: no count of them, and what is left to check.
    expect(fullTextNote(s.fullText, s.query, s.scope)).toBe("full text · checking 2");
    const rows = s.rows;
    s = run(s, { type: "fulltext.hits", key, hits: [], checking: 1 });
    expect(s.rows).toBe(rows);
    expect(fullTextNote(s.fullText, s.query, s.scope)).toBe("full text · checking 1");
    s = run(s, { type: "fulltext.hits", key, hits: [], drop: [seenAs(c)], checking: 0 });
    expect(titles(s)).toEqual(["fix login", "refactor the parser"]);
    s = run(s, { type: "fulltext.done", key });
    expect(fullTextNote(s.fullText, s.query, s.scope)).toBe("full text");
    // Files still read (the index did not cover them): their count, not the checking.
    s = run(
      s,
      { type: "fulltext.start", key, total: 3 },
      { type: "fulltext.hits", key, hits: [], searched: 1, checking: 5 },
    );
    expect(fullTextNote(s.fullText, s.query, s.scope)).toBe("full text 1/3…");
  });

  it("a hit taken back while its row is selected stays, marked, until the cursor leaves it (a key in flight never acts on a neighbour)", () => {
    let s = loginFirstHits(aAndCToCheck);
    const key = fullTextKey(s.query, s.scope, false)!;
    expect(titles(s)).toEqual(["fix login", "deploy", "refactor the parser"]);
    s = run(s, cmd("list.down"));
    expect(s.selectedPath).toBe("/c");
    s = run(s, { type: "fulltext.hits", key, hits: [], drop: [seenAs(c)], checking: 1 });
    // Still listed and selected, its row saying it no longer matches.
    expect(titles(s)).toEqual(["fix login", "deploy", "refactor the parser"]);
    expect(s.selectedPath).toBe("/c");
    expect(s.rows[s.cursor].session.path).toBe("/c");
    expect(s.rows[s.cursor].snippet).toBe(NO_LONGER_MATCHES);
    // The cursor leaves it: it goes, and the cursor is on the row it moved to.
    s = run(s, cmd("list.down"));
    expect(titles(s)).toEqual(["fix login", "refactor the parser"]);
    expect(s.selectedPath).toBe("/a");
    expect(s.rows[s.cursor].session.path).toBe("/a");
  });

  it("a drop the check made of the file as it was before pi wrote to it is ignored (it would undo the newer hit)", () => {
    let s = loginFirstHits({ hits: [["/c", bodyHit("login named")]], searched: 3, checking: 1 });
    const key = fullTextKey(s.query, s.scope, false)!;
    expect(titles(s)).toEqual(["fix login", "deploy"]);
    // The check read /c at 1000 bytes; the list has it at 2048 now (pi wrote): the drop is stale.
    s = run(s, { type: "fulltext.hits", key, hits: [], drop: [seenAs(c, 1000)], checking: 0 });
    expect(titles(s)).toEqual(["fix login", "deploy"]);
    s = run(s, { type: "fulltext.hits", key, hits: [], drop: [seenAs(c)], checking: 0 });
    expect(titles(s)).toEqual(["fix login"]);
  });

  it("a hit never confirmed stays held when the search ends (a take-back ignored as pi wrote), until the changed session's search takes it back", () => {
    let s = loginFirstHits({ hits: [["/c", bodyHit("login named")]], searched: 3, checking: 1, unchecked: ["/c"] });
    const key = fullTextKey(s.query, s.scope, false)!;
    // The check's take-back saw an older file than the list has: ignored.
    s = run(
      s,
      { type: "fulltext.hits", key, hits: [], drop: [seenAs(c, 1000)], checking: 0 },
      { type: "fulltext.done", key },
    );
    expect(s.fullText.running).toBe(false);
    expect([...s.fullText.unchecked]).toEqual(["/c"]);
    expect(titles(s)).toEqual(["fix login", "deploy"]);
    // The changed session searched again, as it is now, without the words: taken back.
    s = run(s, { type: "fulltext.hits", key, hits: [], confirmed: [], drop: [seenAs(c)] });
    expect(titles(s)).toEqual(["fix login"]);
    expect(s.fullText.unchecked.size).toBe(0);
  });

  it("a take-back of a session that is no hit changes nothing", () => {
    const s = loginFirstHits({ hits: [["/c", bodyHit("login")]], searched: 3 });
    const key = fullTextKey(s.query, s.scope, false)!;
    const ft = s.fullText;
    expect(run(s, { type: "fulltext.hits", key, hits: [], drop: [seenAs(a)] }).fullText).toBe(ft);
  });

  it("derives the rows again only when the hits shown change (not for a search starting with none shown)", () => {
    let s = searching("login");
    const key = fullTextKey(s.query, s.scope, false)!;
    const rows = s.rows;
    s = run(s, { type: "fulltext.start", key, total: 3 });
    expect(s.rows).toBe(rows);
    s = run(s, { type: "fulltext.hits", key, hits: [], searched: 1 });
    expect(s.rows).toBe(rows);
    s = run(s, { type: "fulltext.hits", key, hits: [["/a", bodyHit("login in text")]], searched: 2 });
    expect(s.rows).not.toBe(rows);
    const shown = s.rows;
    s = run(s, { type: "fulltext.done", key });
    expect(s.rows).toBe(shown);
    // The same search again (the scan completed): its hits are dropped until it reports.
    s = run(s, { type: "fulltext.start", key, total: 3 });
    expect(titles(s)).toEqual(["fix login"]);
  });

  it("keeps the selection on its session while hits stream in", () => {
    let s = searching("login");
    const key = fullTextKey(s.query, s.scope, false)!;
    expect(s.selectedPath).toBe("/b");
    s = run(
      s,
      { type: "fulltext.start", key, total: 3 },
      { type: "fulltext.hits", key, hits: [["/c", bodyHit("login")]], searched: 3 },
    );
    expect(s.selectedPath).toBe("/b");
  });

  it("Ctrl+T toggles tool output, in the field and in the list (T is pi's label-times key in the tree); the key changes", () => {
    let s = searching("login");
    const before = fullTextKey(s.query, s.scope, s.fullText.includeTools);
    s = run(s, { type: "key", input: "t", key: mk({ ctrl: true }) });
    expect(s.fullText.includeTools).toBe(true);
    expect(s.search.value).toBe("login");
    expect(fullTextKey(s.query, s.scope, s.fullText.includeTools)).not.toBe(before);
    s = run(s, cmd("search.submit"), { type: "key", input: "T", key: mk({ shift: true }) });
    expect(s.fullText.includeTools).toBe(true);
    s = run(s, { type: "key", input: "t", key: mk({ ctrl: true }) });
    expect(s.fullText.includeTools).toBe(false);
  });

  it("no full-text search for one letter or field-only queries", () => {
    expect(fullTextKey(parseQuery("a"), "all", false)).toBeNull();
    expect(fullTextKey(parseQuery("cwd:x"), "all", false)).toBeNull();
    expect(fullTextKey(parseQuery("ab"), "all", false)).not.toBeNull();
  });
});

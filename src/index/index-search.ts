import { closeSync, openSync } from "node:fs";
import type { SessionEntry } from "../model/types.js";
import { foldAccents } from "../search/fold.js";
import {
  bodyHit,
  entryHit,
  matchEntry,
  searchEach,
  textTerms,
  type BodyHit,
  type BodyNeed,
  type EntryHit,
  type RawLine,
  type SearchTarget,
  type SnippetText,
  type TextTerm,
} from "../search/fulltext.js";
import type { Query } from "../search/query.js";
import { fsPath } from "../store/fs-path.js";
import { readRange } from "../store/read-range.js";
import type { IndexDb } from "./index-db.js";
import { fileLinesSql } from "./runs.js";
import { KeptTextState, type FileTextState } from "./text-state.js";
import { trace, tracing } from "../launcher/trace.js";

/*
 * Full-text search answered by the index. The FTS table names candidate lines (every
 * line that could hold a term: trigrams are a superset of substring matches); those lines
 * are read back from their files and checked by matchEntry, the very step the index-free
 * search runs on every line, in file order. So the sessions found, the terms each holds
 * and their snippets are the same as without the index. A term with no candidate line in a
 * file is not in it: a session that needs it (BodyNeed) is decided without a read. Files the index does not cover as they are now (new,
 * appended to, a line too long to index) are searched by reading them, as before.
 */

export interface IndexedHit extends BodyHit {
  path: string;
  /** False when the file was read whole (the index did not cover it). */
  fromIndex: boolean;
  /** The lines the index named, in file order (for hitsOf). */
  lines: readonly Candidate[];
}

export interface Candidate {
  off: number;
  len: number;
}

/** The characters of a term, as the trigram tokenizer counts them (code points). */
const chars = (s: string) => Array.from(s);

/** A literal term the index can narrow: three characters or more once folded. */
export function gramsOf(t: TextTerm): string[] | null {
  if (t.kind === "regex") return null;
  const c = chars(foldAccents(t.text.toLowerCase()));
  if (c.length < 3) return null;
  // Every third gram and the last, which cover the term: any of its grams names a superset
  // of the lines holding it (all are checked), and FTS5 pays for each gram's list. Every
  // gram of `keyboard` (6) took 10–13 ms over 63,000 lines, these (3) 6 ms, naming the same.
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= c.length; i += 3) grams.add(c.slice(i, i + 3).join(""));
  grams.add(c.slice(c.length - 3).join(""));
  return [...grams];
}

/** An FTS5 query that every text holding all the grams matches. */
export function ftsQuery(grams: string[]): string {
  return grams.map((g) => `"${g.replace(/"/g, '""')}"`).join(" AND ");
}

/**
 * Whether no line the index holds can hold the term (the conversation's; the tool texts'
 * too when they are searched): then no file it covers holds it. Undefined when the index
 * cannot narrow the term (a pattern, or under three characters). One row asked for: a word
 * in most sessions answers as fast as a word in none.
 */
export function noLineHolds(db: IndexDb, t: TextTerm, includeTools: boolean): boolean | undefined {
  const grams = gramsOf(t);
  if (!grams) return undefined;
  for (const table of includeTools ? ["chat", "tools"] : ["chat"]) {
    if (db.q(`SELECT 1 AS one FROM ${table} WHERE ${table} MATCH ? LIMIT 1`).get(ftsQuery(grams))) return false;
  }
  return true;
}

/**
 * fid → candidate lines of one term, as SQLite lists them ("off len off len …"): one string
 * per file rather than an object per line (a word in every session names hundreds of
 * thousands of lines; only the files that are checked need theirs as objects). All files
 * in one text ("fid:off len …;fid:…"): a row per file cost a third more than the query.
 */
function candidatesOf(db: IndexDb, grams: string[], includeTools: boolean): Map<number, string> {
  const out = new Map<number, string>();
  for (const table of includeTools ? ["chat", "tools"] : ["chat"]) {
    const got = db
      .q(
        `SELECT group_concat(fid || ':' || c, ';') AS all_files FROM (
           SELECT l.fid AS fid, group_concat(l.off || ' ' || l.len, ' ') AS c FROM ${table}
           JOIN lines l ON l.rid = ${table}.rowid WHERE ${table} MATCH ? GROUP BY l.fid)`,
      )
      .get(ftsQuery(grams)) as { all_files: string | null } | undefined;
    if (!got?.all_files) continue;
    for (const file of got.all_files.split(";")) {
      const colon = file.indexOf(":");
      const fid = Number(file.slice(0, colon));
      const c = file.slice(colon + 1);
      const had = out.get(fid);
      out.set(fid, had === undefined ? c : `${had} ${c}`);
    }
  }
  return out;
}

/** A file's candidate lines out of candidatesOf's text. */
function parseCandidates(text: string): Candidate[] {
  const n = text.split(" ");
  const out: Candidate[] = [];
  for (let i = 0; i + 1 < n.length; i += 2) out.push({ off: Number(n[i]), len: Number(n[i + 1]) });
  return out;
}

/** Every file's text state, read again only when the index changed (the browser searches at every key). */
const textStateMemo = new WeakMap<IndexDb, { mark: string; byPath: Map<string, FileTextState> }>();

/**
 * What readTextStates has read so far of an index at a change mark, while it reads: a search
 * that cannot wait for it reads the rest (the first search after the list is complete
 * starts as its keys end, while readTextStates still waits for them; it read every row again).
 */
const textStatesRead = new WeakMap<IndexDb, { mark: string; byPath: Map<string, FileTextState>; after: number }>();

const TEXT_STATE_ROWS = "SELECT fid, path, text_size, text_mtime, text_ctime, text_whole, text_tools FROM files";

function textStates(db: IndexDb): Map<string, FileTextState> {
  const mark = db.changeMark();
  const had = textStateMemo.get(db);
  if (had?.mark === mark) return had.byPath;
  const part = textStatesRead.get(db);
  const byPath = part?.mark === mark ? part.byPath : new Map<string, FileTextState>();
  const rows = db
    .q(`${TEXT_STATE_ROWS} WHERE fid > ? ORDER BY fid`)
    .all(part?.mark === mark ? part.after : -1) as unknown as FileTextState[];
  for (const r of rows) byPath.set(r.path, new KeptTextState(r));
  textStateMemo.set(db, { mark, byPath });
  return byPath;
}

/** The text state of `path` kept for the searches of `db` at its current mark, if read (for tests). */
export function keptTextState(db: IndexDb, path: string): FileTextState | undefined {
  const had = textStateMemo.get(db);
  return had?.mark === db.changeMark() ? had.byPath.get(path) : undefined;
}

/** How long readTextStates waits before it looks again whether keys are still waiting. */
const BUSY_WAIT_MS = 20;

/**
 * Reads every file's text state ahead of the searches to come (at 50,000 sessions ~200-400 ms
 * in one go, which the first search of a store paid after the last key): `slice` rows at a
 * time, a turn of the event loop before each and none read while `busy()` (keys waiting), so
 * no key waits on it. Kept only if the index did not change meanwhile (else the next search
 * reads them); stops once a search has read them (taking over what was read: textStatesRead).
 */
export async function readTextStates(db: IndexDb, busy: () => boolean = () => false, slice = 2000): Promise<void> {
  const mark = db.changeMark();
  if (textStateMemo.get(db)?.mark === mark) return;
  const part = { mark, byPath: new Map<string, FileTextState>(), after: -1 };
  textStatesRead.set(db, part);
  const next = db.q(`${TEXT_STATE_ROWS} WHERE fid > ? ORDER BY fid LIMIT ?`);
  try {
    for (;;) {
      await new Promise((r) => setImmediate(r));
      // Keys waiting: looked at again a little later, not at every turn (that would keep the thread busy).
      while (busy()) await new Promise((r) => setTimeout(r, BUSY_WAIT_MS));
      if (textStateMemo.get(db)?.mark === mark || db.changeMark() !== mark || textStatesRead.get(db) !== part) return;
      const rows = next.all(part.after, slice) as unknown as FileTextState[];
      for (const r of rows) part.byPath.set(r.path, new KeptTextState(r));
      if (rows.length > 0) part.after = rows[rows.length - 1].fid;
      if (tracing) trace(`text states: ${part.byPath.size} read`);
      if (rows.length < slice) break;
    }
    textStateMemo.set(db, { mark, byPath: part.byPath });
  } finally {
    if (textStatesRead.get(db) === part) textStatesRead.delete(db);
  }
}

/**
 * Brings what textStates keeps of `db` up to date after this very connection wrote the text
 * states of the files `fids` (search catching up with a few changed files) and no other
 * connection committed since `before` (its change mark then): only their rows are read again,
 * not every file's (50,000 rows, twice per search after pi wrote). Else nothing: the next
 * textStates reads them all.
 */
export function textStatesWritten(db: IndexDb, before: string, fids: readonly number[]): void {
  const had = textStateMemo.get(db);
  if (!had || had.mark !== before) return;
  const now = db.changeMark();
  // data_version moves only when another connection commits.
  if (now.split("/")[0] !== before.split("/")[0]) return;
  const one = db.q(`${TEXT_STATE_ROWS} WHERE fid = ?`);
  for (const fid of fids) {
    const r = one.get(fid) as unknown as FileTextState | undefined;
    if (r) had.byPath.set(r.path, new KeptTextState(r));
  }
  textStateMemo.set(db, { mark: now, byPath: had.byPath });
}

/** Whether the text state was made of the file as the target is now (its size, mtime and ctime). */
function sameFile(r: FileTextState, t: SearchTarget): boolean {
  return r.text_size === t.bytes && r.text_mtime === t.mtimeMs && t.ctimeMs !== undefined && r.text_ctime === t.ctimeMs;
}

/** The text state was made of the file as the target is now (its size, mtime and ctime). */
const SAME = 1;
/** ... and every line of its conversation is indexed: the index covers it. */
const WHOLE = 2;
/** ... and its tool texts were read too. */
const TOOLS = 4;
const COVERED_WITH_TOOLS = SAME | WHOLE | TOOLS;

/** What a target's text state says of it, as SAME, WHOLE and TOOLS (one answer for every use of it). */
function stateOf(r: FileTextState | undefined, t: SearchTarget): number {
  if (!r || !sameFile(r, t)) return 0;
  return SAME | (r.text_whole === 1 ? WHOLE : 0) | (r.text_tools === 1 ? TOOLS : 0);
}

/** A state's fid when it covers the conversation, and the tool texts too when they are searched, else -1. */
function fidIf(r: FileTextState | undefined, state: number, includeTools: boolean): number {
  const want = includeTools ? COVERED_WITH_TOOLS : SAME | WHOLE;
  return (state & want) === want ? r!.fid : -1;
}

/**
 * Whether the index covers a target as it is now: text indexed at this very size, mtime and ctime,
 * every line, and the tool texts too when they are searched. Its fid, or undefined when not
 * covered. One lookup per target, no map of its own: the browser asks it of every session
 * at every key.
 */
function coveredFid(byPath: Map<string, FileTextState>, t: SearchTarget, includeTools: boolean): number | undefined {
  const r = byPath.get(t.path);
  const fid = fidIf(r, stateOf(r, t), includeTools);
  return fid < 0 ? undefined : fid;
}

/**
 * Whether the index has read a target's text as the file is now (and its tool texts too,
 * when they are searched): every line, or all but those it cannot hold (a torn last line,
 * a line too long: coveredFid leaves such a file to reading, and indexing it again would
 * leave the same).
 */
function caughtUpWith(byPath: Map<string, FileTextState>, t: SearchTarget, includeTools: boolean): boolean {
  const state = stateOf(byPath.get(t.path), t);
  return (state & SAME) !== 0 && (!includeTools || (state & TOOLS) !== 0);
}

/**
 * Whether nothing is left for the index to catch up with, for these targets: answered from
 * the text states the search reads anyway, without scanning the files table.
 */
export function caughtUp(db: IndexDb, targets: readonly SearchTarget[], includeTools: boolean): boolean {
  const byPath = textStates(db);
  return targets.every((t) => caughtUpWith(byPath, t, includeTools));
}

/**
 * What the index covers of each target as it is now (coveredFid's answer, for the
 * conversation and with the tool texts), with the text generation it was read at
 * (index-db.ts, addTextGeneration): while text_gen is the same, so is this, for a store
 * whose files are the same. Undefined when the index has no text generation.
 */
export interface Coverage {
  gen: string;
  /** Per target: its fid when its conversation is covered, else -1. */
  fid: number[];
  /** Per target: 1 when its tool texts are covered too. */
  tools: number[];
  /** caughtUp's answer for the conversation, and with the tool texts: 1 or 0. */
  caughtUp: [number, number];
}

export function coverageOf(db: IndexDb, targets: readonly SearchTarget[]): Coverage | undefined {
  // Read before the states: a change after it makes it older, never newer than them.
  const gen = db.meta("text_gen");
  if (!gen) return undefined;
  const byPath = textStates(db);
  // One lookup of each target's state for all four answers: at 50,000 sessions each pass
  // over the targets (a path hashed, its state found) cost ~70 ms.
  const fid = new Array<number>(targets.length);
  const tools = new Array<number>(targets.length);
  let chat = 1;
  let all = 1;
  for (let i = 0; i < targets.length; i++) {
    const r = byPath.get(targets[i].path);
    const state = stateOf(r, targets[i]);
    fid[i] = fidIf(r, state, false);
    tools[i] = state === COVERED_WITH_TOOLS ? 1 : 0;
    if (!(state & SAME)) chat = all = 0;
    else if (!(state & TOOLS)) all = 0;
  }
  return { gen, fid, tools, caughtUp: [chat, all] };
}

/** Whether `c` is still what coverageOf would say (the caller vouches that the targets are the same). */
export function stillCovers(db: IndexDb, c: Pick<Coverage, "gen">): boolean {
  return db.meta("text_gen") === c.gen;
}

/** A target's fid when the index covers it (coveredFid), as a kept Coverage says. */
export type KnownCoverage = (t: SearchTarget, includeTools: boolean) => number | undefined;

/** One candidate line's bytes read back, or undefined when it is not where the index says (the file changed under it). */
export function readRawLine(fd: number, { off, len }: Candidate): RawLine | undefined {
  // The line with the newline before and after it: both must be there.
  const from = off === 0 ? 0 : off - 1;
  const lead = off - from;
  const buf = readRange(fd, from, len + 1 + lead);
  if ((lead === 1 && buf[0] !== 0x0a) || buf.length !== len + 1 + lead || buf[buf.length - 1] !== 0x0a) {
    return undefined;
  }
  return { buf, start: lead, end: lead + len };
}

/** A line's entry, or undefined when it is no JSON (not where the index says); null when not an object. */
export function parseLine(text: string): SessionEntry | null | undefined {
  try {
    const entry = JSON.parse(text) as SessionEntry;
    return entry && typeof entry === "object" ? entry : null;
  } catch {
    return undefined;
  }
}

/** One candidate line read back, or undefined when it is not where the index says (the file changed under it). */
function readLine(fd: number, c: Candidate): SessionEntry | null | undefined {
  const raw = readRawLine(fd, c);
  return raw && parseLine(raw.buf.toString("utf8", raw.start, raw.end));
}

export function withFile<T>(path: string, fn: (fd: number) => T): T {
  const fd = openSync(fsPath(path), "r");
  try {
    return fn(fd);
  } finally {
    closeSync(fd);
  }
}

/** A file's candidate lines, and the terms that have one there (the others are not in it). */
interface Lines {
  lines: Candidate[];
  listed: ReadonlySet<TextTerm>;
}

/**
 * Checks a file's candidate lines in file order, as the full search would meet them,
 * until every term listed there is found. Returns its hit (bodyHit; the snippet "" without
 * snippets), or null; undefined when a line is not where the index says: the caller then
 * reads the file whole.
 */
function verify(
  path: string,
  { lines, listed }: Lines,
  terms: readonly TextTerm[],
  need: readonly boolean[] | undefined,
  includeTools: boolean,
  withSnippet: boolean | "lazy",
): BodyHit | null | undefined {
  const pending = new Set(listed);
  let snippet: SnippetText | null = null;
  const verdict = () => bodyHit(terms, (t) => pending.has(t) || !listed.has(t), need, snippet);
  return withFile(path, (fd) => {
    for (const c of lines) {
      const entry = readLine(fd, c);
      if (entry === undefined) return undefined;
      if (entry === null) continue;
      // The snippet and the verdict come from the one running set, exactly as the full search.
      // (Called before ??=, which would skip the call once a snippet is set.)
      const hit = matchEntry(entry, pending, includeTools, withSnippet);
      snippet ??= hit;
      if (pending.size === 0) break;
    }
    return verdict();
  });
}

/** The first `max` entries among a matching file's candidate lines that hold a term, with snippets. */
export function hitsOf(
  path: string,
  lines: readonly Candidate[],
  terms: readonly TextTerm[],
  includeTools: boolean,
  max: number,
): EntryHit[] {
  const hits: EntryHit[] = [];
  withFile(path, (fd) => {
    for (const c of lines) {
      if (hits.length >= max) break;
      const entry = readLine(fd, c);
      const hit = entry ? entryHit(entry, terms, includeTools) : null;
      if (hit) hits.push(hit);
    }
  });
  return hits;
}

/** A file's candidate lines (of every term), each once, in file order. */
function inFileOrder(lists: string[]): Candidate[] {
  const byOff = new Map<number, Candidate>();
  for (const list of lists) for (const c of parseCandidates(list)) byOff.set(c.off, c);
  return [...byOff.values()].sort((a, b) => a.off - b.off);
}

/** A target's fid where the index covers it: as kept (`known`), else from the text states, read on first need. */
export function fidLookup(
  db: IndexDb,
  includeTools: boolean,
  known?: KnownCoverage,
): (t: SearchTarget) => number | undefined {
  if (known) return (t) => known(t, includeTools);
  let byPath: Map<string, FileTextState> | undefined;
  return (t) => coveredFid((byPath ??= textStates(db)), t, includeTools);
}

/**
 * What the index covers of each of a list of targets, by place (coveredFid's answer; -1 when
 * not covered), for the conversation and with the tool texts, as of the index's change mark;
 * and which place holds each fid. Kept for the same list (the browser's targets are the same
 * array from search to search while the store and scope are): a search asks it of the files
 * the index names, and of those it does not cover, not of every session again by its path
 * (at 50,000 sessions that pass was most of a search for a word in none, ~50-100 ms).
 */
export interface PlacedCoverage {
  mark: string;
  chat: Int32Array;
  tools: Int32Array;
  /** fid → its place (-1: none), made on first need. */
  placeOf?: Int32Array;
  /** The places the conversation's coverage leaves out (ascending), and with the tool texts: made on first need. */
  uncoveredChat?: Int32Array;
  uncoveredTools?: Int32Array;
}

const placedMemo = new WeakMap<IndexDb, WeakMap<readonly SearchTarget[], PlacedCoverage>>();

/**
 * The last targets asked of and their coverage: the browser lets its targets go when no query
 * calls for a search and makes them again for the next query, the same sessions in the same
 * order while the store and scope are the same (their coverage is then the same: a target is
 * never changed in place). Held weakly, so taken only while not yet collected: the targets
 * are the browser's sessions, and those of a store that changed since (~57 MB at 50,000)
 * must not stay alive for it.
 */
const lastPlaced = new WeakMap<IndexDb, { targets: WeakRef<readonly SearchTarget[]>; c: PlacedCoverage }>();

const sameTargets = (a: readonly SearchTarget[] | undefined, b: readonly SearchTarget[]) =>
  a !== undefined && a.length === b.length && a.every((t, k) => t === b[k]);

export function placedCoverage(db: IndexDb, targets: readonly SearchTarget[]): PlacedCoverage {
  // Read before the states: a change after it makes the kept answer older, never newer than them.
  const mark = db.changeMark();
  let memo = placedMemo.get(db);
  if (!memo) placedMemo.set(db, (memo = new WeakMap()));
  let had = memo.get(targets);
  const last = lastPlaced.get(db);
  if (!had && last?.c.mark === mark && sameTargets(last.targets.deref(), targets)) {
    had = last.c;
    memo.set(targets, had);
    lastPlaced.set(db, { targets: new WeakRef(targets), c: had });
  }
  if (had?.mark === mark) return had;
  const byPath = textStates(db);
  const chat = new Int32Array(targets.length);
  const tools = new Int32Array(targets.length);
  for (let k = 0; k < targets.length; k++) {
    const r = byPath.get(targets[k].path);
    const state = stateOf(r, targets[k]);
    chat[k] = fidIf(r, state, false);
    tools[k] = fidIf(r, state, true);
  }
  const c: PlacedCoverage = { mark, chat, tools };
  memo.set(targets, c);
  lastPlaced.set(db, { targets: new WeakRef(targets), c });
  return c;
}

/** fid → its place in the targets (-1: none of them). */
function placesOf(c: PlacedCoverage): Int32Array {
  if (c.placeOf) return c.placeOf;
  let max = -1;
  for (const f of c.chat) if (f > max) max = f;
  const at = new Int32Array(max + 1).fill(-1);
  c.chat.forEach((f, k) => f >= 0 && (at[f] = k));
  return (c.placeOf = at);
}

/** The places whose file the index does not cover (ascending). */
function uncoveredOf(c: PlacedCoverage, includeTools: boolean): Int32Array {
  const of = (fids: Int32Array) => {
    const out: number[] = [];
    for (let k = 0; k < fids.length; k++) if (fids[k] < 0) out.push(k);
    return Int32Array.from(out);
  };
  return includeTools ? (c.uncoveredTools ??= of(c.tools)) : (c.uncoveredChat ??= of(c.chat));
}

/** What the index says of a target: no match (null), these lines to check, or read it whole (undefined). */
type Verdict = null | (() => Lines) | undefined;

/** The index's answers for one query's terms, asked target by target. */
interface Verdicts {
  /** Per term, false when the index says the target's file holds no line with it. */
  mayHold(t: SearchTarget): boolean[];
  /** Its verdict for a session that needs these terms of its conversation (every term without `need`). */
  verdict(t: SearchTarget, need?: readonly boolean[]): Verdict;
  /** The same, of a file the index covers (its fid), or of one it does not (undefined). */
  verdictOf(fid: number | undefined, need?: readonly boolean[]): Verdict;
  /** Whether a covered file (its fid) holds none of the terms. */
  fidHoldsNone(fid: number): boolean;
  /** Per term, its files with a candidate line (fid → those lines), or undefined when the index cannot narrow it. */
  named: readonly (ReadonlyMap<number, string> | undefined)[];
}

/**
 * The index's verdict on any target, decided when asked: a caller that ranks ten thousand
 * sessions asks of each once, and a set of the ones with no match made up front cost a
 * pass of its own (for a word in no session, all of them).
 */
function verdicts(db: IndexDb, terms: readonly TextTerm[], includeTools: boolean, known?: KnownCoverage): Verdicts {
  const gramSets = terms.map(gramsOf);
  if (gramSets.every((g) => g === null))
    return {
      mayHold: () => terms.map(() => true),
      verdict: () => undefined,
      verdictOf: () => undefined,
      fidHoldsNone: () => false,
      named: terms.map(() => undefined),
    };
  // Per term, the files with a candidate line and those lines (undefined: a short word or a
  // pattern, which the index cannot narrow).
  const perTerm = gramSets.map((g) => (g ? candidatesOf(db, g, includeTools) : undefined));
  const fidOf = fidLookup(db, includeTools, known);
  const fidHoldsNone = (fid: number) => perTerm.every((m) => m?.has(fid) === false);
  const verdictOf = (fid: number | undefined, need?: readonly boolean[]): Verdict => {
    if (fid === undefined) return undefined;
    // A needed term with no line in it: no match, whatever the others hold.
    for (let i = 0; i < terms.length; i++) if (perTerm[i]?.has(fid) === false && (need?.[i] ?? true)) return null;
    if (perTerm.some((m) => !m)) return undefined; // the index only narrowed the files
    const lists: string[] = [];
    const listed = new Set<TextTerm>();
    for (let i = 0; i < terms.length; i++) {
      const c = perTerm[i]!.get(fid);
      if (c === undefined) continue;
      lists.push(c);
      listed.add(terms[i]);
    }
    if (lists.length === 0) return null;
    return () => ({ lines: inFileOrder(lists), listed });
  };
  return {
    mayHold(t) {
      const fid = fidOf(t);
      return perTerm.map((m) => fid === undefined || !m || m.has(fid));
    },
    verdict: (t, need) => verdictOf(fidOf(t), need),
    verdictOf,
    fidHoldsNone,
    named: perTerm,
  };
}

interface Classified {
  /** Targets the index does not cover as they are now (or cannot narrow): read whole. */
  readWhole: SearchTarget[];
  /** Targets whose candidate lines the index names, with those lines in file order (and what the session needs). */
  fromIndex: Array<[SearchTarget, () => Lines, (readonly boolean[])?]>;
  /** How many the index decided hold no match. */
  decided: number;
}

/** The index's verdict on every target, each target put with its kind. */
function classify(
  db: IndexDb,
  targets: readonly SearchTarget[],
  terms: readonly TextTerm[],
  includeTools: boolean,
  known?: KnownCoverage,
  need?: BodyNeed,
): Classified {
  const v = verdicts(db, terms, includeTools, known);
  const out: Classified = { readWhole: [], fromIndex: [], decided: 0 };
  const one = (t: SearchTarget, fid: number | undefined) => {
    // Asked of the session only when its file may hold a term (the browser asks at every key).
    if (need && fid !== undefined && v.fidHoldsNone(fid)) {
      out.decided++;
      return;
    }
    const n = need ? need(t.path) : undefined;
    const got = n === null ? null : v.verdictOf(fid, n);
    if (got === null) out.decided++;
    else if (got === undefined) out.readWhole.push(t);
    else out.fromIndex.push([t, got, n ?? undefined]);
  };
  if (!known && v.named.every((m) => m !== undefined)) {
    // Every word narrowed: a covered file no word names is no match, so only the named files
    // and those not covered are looked at, in the targets' order.
    const c = placedCoverage(db, targets);
    const fids = includeTools ? c.tools : c.chat;
    const at = placesOf(c);
    const places: number[] = Array.from(uncoveredOf(c, includeTools));
    for (const m of v.named)
      for (const fid of m!.keys()) {
        const k = fid < at.length ? at[fid] : -1;
        if (k >= 0 && fids[k] === fid) places.push(k);
      }
    const sorted = Int32Array.from(places).sort();
    let looked = 0;
    for (let x = 0; x < sorted.length; x++) {
      const k = sorted[x];
      if (x > 0 && sorted[x - 1] === k) continue; // named by more than one word
      looked++;
      one(targets[k], fids[k] < 0 ? undefined : fids[k]);
    }
    out.decided += targets.length - looked;
    return out;
  }
  const fidOf = fidLookup(db, includeTools, known);
  for (const t of targets) one(t, fidOf(t));
  return out;
}

/**
 * Above this many candidate lines for a term, a plan names them per file only for the files
 * it checks (lazyPlan); at or below it, for every file at once (classify: a join of each
 * line with its file, which costs in proportion to the lines and is cheap for a rare word).
 */
const LAZY_ABOVE = 5000;

/** The index's answer for `targets`, to be checked target by target (a caller that needs only the best few checks only those). */
export interface IndexedPlan {
  /** Per text term, false when the index says the target's file holds no line with it (checking it would not find it). */
  mayHold(t: SearchTarget): boolean[];
  /**
   * The file's hit for a session that needs `need` of its conversation (bodyHit; its snippet
   * left empty), or null: its candidate lines read where the index covers it, else the file
   * read, as searchWithIndex decides each target.
   */
  check(t: SearchTarget, need?: readonly boolean[]): Promise<IndexedHit | null>;
}

/**
 * The plan for a query, for any target the caller checks. Throws only on an index error;
 * null when the query has nothing to search (searchWithIndex would find nothing).
 */
export function planWithIndex(
  db: IndexDb,
  query: Query,
  includeTools: boolean,
  known?: KnownCoverage,
  {
    lazyAbove = LAZY_ABOVE,
    lazyMisses = LAZY_MISSES,
    runGap = RUN_GAP,
    rangesPerList = RANGES_PER_LIST,
    listUpTo = LIST_UP_TO,
    onUnreadable,
  }: {
    lazyAbove?: number;
    lazyMisses?: number;
    /** A file's lines further apart than this (in rids) are asked of the index as two runs (linesHolding). */
    runGap?: number;
    /** The range queries a plan may ask, per term and table, before it lists every candidate line once (RANGES_PER_LIST). */
    rangesPerList?: number;
    /** A common word with at most this many candidate lines has them listed at once (LIST_UP_TO). */
    listUpTo?: number;
    /** A file that could not be read (checked as no match): an answer of it is not to be kept. */
    onUnreadable?: (path: string) => void;
  } = {},
): IndexedPlan | null {
  const terms = textTerms(query);
  if (terms.length === 0 || query.terms.some((t) => t.kind === "never")) return null;
  const gramSets = terms.map(gramsOf);
  const readWhole = async (path: string, need?: readonly boolean[]): Promise<IndexedHit | null> => {
    let found: IndexedHit | null = null;
    await searchEach([path], terms, { includeTools, need: need && (() => need), onUnreadable }, (p, hit) => {
      if (hit !== null) found = { path: p, ...hit, fromIndex: false, lines: [] };
    });
    return found;
  };
  /** A covered file's hit out of its candidate lines (in file order), or null; read whole when a line is not where the index says. */
  const checkLines = async (path: string, l: Lines, need?: readonly boolean[]): Promise<IndexedHit | null> => {
    let hit: BodyHit | null | undefined;
    try {
      hit = verify(path, l, terms, need, includeTools, false);
    } catch {
      onUnreadable?.(path);
      return null; // gone since the scan: not a match, as without the index
    }
    if (hit === undefined) return readWhole(path, need);
    return hit === null ? null : { path, ...hit, fromIndex: true, lines: l.lines };
  };
  const exact = (): IndexedPlan => {
    const v = verdicts(db, terms, includeTools, known);
    return {
      mayHold: (t) => v.mayHold(t),
      async check(t, need) {
        const got = v.verdict(t, need);
        if (got === null) return null;
        return got ? checkLines(t.path, got(), need) : readWhole(t.path, need);
      },
    };
  };
  if (!gramSets.every((g) => g !== null)) return exact();
  // A rare word's match runs again in verdicts, joined with its lines' files: under a
  // millisecond at that size (0.1–0.8 ms on the bench's store). Whether a word is rare is
  // told by counting its lines up to the bound, not by listing them all.
  const grams = gramSets as string[][];
  if (!Number.isFinite(lazyAbove)) return exact();
  const most = Math.max(0, Math.floor(lazyAbove), listUpTo);
  const counts = grams.map((g) => linesUpTo(db, g, includeTools, most));
  if (counts.every((n) => n <= lazyAbove)) return exact();
  // A few thousand lines are listed at once for less than asking each file checked (LIST_UP_TO).
  const byRange = counts.some((n) => n > listUpTo) ? rangesPerList * grams.length * tablesOf(includeTools).length : 0;
  return lazyPlan(
    db,
    terms,
    grams,
    { includeTools, known, misses: lazyMisses, runGap, ranges: byRange },
    checkLines,
    readWhole,
    exact,
  );
}

/** After this many files checked and found to hold no candidate line, a lazy plan becomes exact. */
const LAZY_MISSES = 256;

/** The FTS tables a search reads: the conversation's, and the tool texts' when they are searched. */
const tablesOf = (includeTools: boolean) => (includeTools ? ["chat", "tools"] : ["chat"]);

/**
 * How many lines are candidates of the grams, counted up to `most` + 1 alone (a word in
 * most sessions has hundreds of thousands: listing them all was most of a relaunched
 * search's own time at 50,000 sessions; counting 20,000 takes ~3 ms there).
 */
function linesUpTo(db: IndexDb, grams: string[], includeTools: boolean, most: number): number {
  let n = 0;
  for (const table of tablesOf(includeTools)) {
    const got = db
      .q(`SELECT count(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${table} MATCH ? LIMIT ?)`)
      .get(ftsQuery(grams), most + 1 - n) as { n: number };
    n += got.n;
    if (n > most) break;
  }
  return n;
}

/** A file's lines further apart than this (in rids: lines indexed at another time) are asked of the index apart. */
const RUN_GAP = 2048;
/** More runs than this in one file and table, and its candidates are told from every candidate line of the terms (as listed once). */
const MAX_RUNS = 32;
/**
 * After this many range queries per term and table (~0.1–0.3 ms each at 50,000 sessions;
 * a checked file asks one per run of its lines, per table, per term), every candidate line
 * of the terms is listed once (~80 ms there) and the next files' are told from it: a caller
 * that checks hundreds (a long --limit) pays no more than ~20 ms over listing them all.
 * Counted in queries, not files: a file indexed in many runs costs as much as many files.
 */
const RANGES_PER_LIST = 64;
/**
 * A common word's candidate lines are listed at once when there are at most this many: a
 * file's range asked of the index costs about as much as listing ~700 lines (0.3 ms against
 * ~0.4 µs a line), so for the twenty-odd files a page checks, ~15,000; the bound is higher
 * as the ranges cost more where a file's lines are fewer and closer (a store of 3,000
 * sessions: `keyboard`'s 11,000 lines listed in ~2 ms, less than its files' ranges;
 * docs/performance.md). They are listed when the first file is checked.
 */
const LIST_UP_TO = 20_000;

/**
 * A plan for common words: a file's candidate lines asked of the index only when the file
 * is checked (its lines' rids, a range at a time: the FTS rows in that range matching the
 * grams), not every candidate line of every file up front (a word in most sessions names
 * hundreds of thousands of lines, 50–80 ms at 50,000 sessions, for a caller that checks the
 * best twenty). Every file may hold every term until then; a caller that checks the best
 * few meets few that do not, and after LAZY_MISSES of those the plan asks the index for
 * every file at once (`exact`). When no term is in more than LIST_UP_TO lines
 * (`ranges` 0), every candidate line is listed when the first file is checked and no file is
 * asked by range.
 */
function lazyPlan(
  db: IndexDb,
  terms: readonly TextTerm[],
  grams: readonly string[][],
  {
    includeTools,
    known,
    misses: maxMisses,
    runGap,
    ranges,
  }: { includeTools: boolean; known?: KnownCoverage; misses: number; runGap: number; ranges: number },
  checkLines: (path: string, l: Lines, need?: readonly boolean[]) => Promise<IndexedHit | null>,
  readWhole: (path: string, need?: readonly boolean[]) => Promise<IndexedHit | null>,
  exact: () => IndexedPlan,
): IndexedPlan {
  const fidOf = fidLookup(db, includeTools, known);
  let misses = 0;
  let then: IndexedPlan | undefined;
  // Every candidate line of each term, listed on first need (a file whose lines were indexed
  // in many runs, or many files checked), and the index's change mark in the read it was listed in.
  let every: Float64Array[] | undefined;
  let everyMark = "";
  let spent = 0;
  const tables = tablesOf(includeTools);
  const holding = (lines: readonly LineRow[]): Array<(rid: number) => boolean> => {
    if (!every) {
      // A line's text is in the tools table when it is a tool line, else in chat (batchSink):
      // each table is asked only the runs of its own lines.
      const runs = tables.map((table) => runsOf(lines, table === "tools" ? 1 : 0, runGap));
      const cost = grams.length * runs.reduce((n, r) => n + r.length, 0);
      if (runs.every((r) => r.length <= MAX_RUNS) && spent + cost <= ranges) {
        spent += cost;
        return grams.map((g) => {
          const held = linesHolding(db, g, tables, runs);
          return (rid: number) => held.has(rid);
        });
      }
    }
    // Listed in the read of the file that first needed it: if the index changed since (another
    // process re-indexed a file: lines with new rids), listed again in this file's read.
    if (every && everyMark !== db.changeMark()) every = undefined;
    if (!every) {
      everyMark = db.changeMark();
      every = grams.map((g) => matchingRows(db, g, includeTools));
    }
    return every.map((rows) => (rid: number) => has(rows, rid));
  };
  return {
    mayHold: (t) => then?.mayHold(t) ?? terms.map(() => true),
    async check(t, need) {
      if (then) return then.check(t, need);
      const { path } = t;
      const fid = fidOf(t);
      if (fid === undefined) return readWhole(path, need);
      let l: Lines | null;
      try {
        // Its lines and which of them hold a term read of one state of the index: another
        // process dropping the FTS rows between them (dropOrphanText) would make it no match.
        l = db.read(() => fileCandidates(db, fid, terms, holding, includeTools, need));
      } catch {
        return readWhole(path, need); // the index failed under us: the file says
      }
      if (l) return checkLines(path, l, need);
      if (++misses >= maxMisses) {
        try {
          then = exact();
        } catch {
          then = { mayHold: () => terms.map(() => true), check: (x, n) => readWhole(x.path, n) };
        }
      }
      return null;
    },
  };
}

/** A line of a file as the lines table holds it (tool: 1 for a tool line). */
type LineRow = Candidate & { rid: number; tool: number };

/**
 * A file's lines' rids of one kind (tool lines or not) as ranges [first, last], a new one past
 * a gap of more than `gap` rids (each a range query of the index).
 */
function runsOf(lines: readonly LineRow[], tool: number, gap: number): Array<[number, number]> {
  const rids = Float64Array.from(
    lines.filter((l) => l.tool === tool),
    (l) => l.rid,
  ).sort();
  const runs: Array<[number, number]> = [];
  for (const rid of rids) {
    const last = runs.at(-1);
    if (last && rid - last[1] <= gap) last[1] = rid;
    else runs.push([rid, rid]);
  }
  return runs;
}

/**
 * The candidate lines of the grams among these ranges of rids, per table (FTS rowids are the
 * lines' rids). The bounds are bound as integers: bound as JS numbers (REAL) FTS5 does not
 * seek by them and reads the grams' whole lists (30–60 ms a query against ~0.1 ms at 50,000 sessions).
 */
function linesHolding(
  db: IndexDb,
  grams: string[],
  tables: readonly string[],
  runs: ReadonlyArray<ReadonlyArray<readonly [number, number]>>,
): Set<number> {
  const held = new Set<number>();
  const match = ftsQuery(grams);
  for (const [k, table] of tables.entries()) {
    if (runs[k].length === 0) continue;
    const q = db.q(`SELECT rowid AS r FROM ${table} WHERE ${table} MATCH ? AND rowid BETWEEN ? AND ?`);
    for (const [first, last] of runs[k])
      for (const row of q.all(match, BigInt(first), BigInt(last)) as Array<{ r: number }>) held.add(row.r);
  }
  return held;
}

/** A term's candidate lines (FTS rowids, which are the lines' rids), ascending. */
function matchingRows(db: IndexDb, grams: string[], includeTools: boolean): Float64Array {
  const lists: Float64Array[] = [];
  for (const table of tablesOf(includeTools)) {
    const got = db.q(`SELECT group_concat(rowid) AS r FROM ${table} WHERE ${table} MATCH ?`).get(ftsQuery(grams)) as
      { r: string | null } | undefined;
    lists.push(parseNumbers(got?.r ?? ""));
  }
  if (lists.length === 1) return lists[0];
  const all = new Float64Array(lists.reduce((n, l) => n + l.length, 0));
  let at = 0;
  for (const l of lists) {
    all.set(l, at);
    at += l.length;
  }
  return all.sort();
}

/** "12,34,56" as numbers, without an array of strings in between. */
export function parseNumbers(text: string): Float64Array {
  if (!text) return new Float64Array(0);
  let n = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 44) n++;
  const out = new Float64Array(n);
  let k = 0;
  let v = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) {
      out[k++] = v;
      v = 0;
    } else v = v * 10 + (c - 48);
  }
  out[k] = v;
  return out;
}

function has(sorted: Float64Array, x: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid];
    if (v === x) return true;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * A file's candidate lines in file order (its lines that are a candidate of some term) and
 * the terms with one there, when every needed term has one (as classify decides), else
 * null (no match). Without tool output its tool lines are not asked for: their rows are in
 * the tools table, never a candidate. `holding`: per term, whether a line (its rid) is a
 * candidate, for these lines.
 */
function fileCandidates(
  db: IndexDb,
  fid: number,
  terms: readonly TextTerm[],
  holding: (lines: readonly LineRow[]) => Array<(rid: number) => boolean>,
  includeTools: boolean,
  need: readonly boolean[] | undefined,
): Lines | null {
  const lines = db
    .q(fileLinesSql("l.rid AS rid, l.off AS off, l.len AS len, l.tool AS tool", !includeTools))
    .all(fid) as unknown as LineRow[];
  if (lines.length === 0) return null;
  const held = holding(lines);
  const found = terms.map(() => false);
  const out: Candidate[] = [];
  let lastOff = -1;
  for (const l of lines) {
    let any = false;
    for (let i = 0; i < held.length; i++) {
      if (held[i](l.rid)) found[i] = any = true;
    }
    // One line per offset, as inFileOrder keeps it.
    if (any && l.off !== lastOff) {
      out.push({ off: l.off, len: l.len });
      lastOff = l.off;
    }
  }
  if (out.length === 0 || found.some((f, i) => !f && (need?.[i] ?? true))) return null;
  return { lines: out, listed: new Set(terms.filter((_, i) => found[i])) };
}

/** How many words a session needs of its conversation (all without a need). */
export const needed = (need: readonly boolean[] | undefined, all: number) =>
  need ? need.reduce((n, x) => n + (x ? 1 : 0), 0) : all;

export const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

export interface IndexedSearchOptions {
  includeTools: boolean;
  signal?: AbortSignal;
  onMatch(hit: IndexedHit): void;
  onProgress?(searched: number): void;
  concurrency?: number;
  /**
   * False: hits carry no snippet (a caller that ranks first and shows a few makes them with
   * hitsOf); "lazy": each made when first read (LazySnippet: a caller that shows a few of all).
   */
  snippets?: boolean | "lazy";
  /** What the index covers, as kept (else read from it). */
  known?: KnownCoverage;
  /** What each session needs of its conversation (every term without it). */
  need?: BodyNeed;
  /** A file that could not be read (counted as no match): an answer of it is not to be kept. */
  onUnreadable?: (path: string) => void;
}

/**
 * Searches `targets` for the query's text terms using the index where it covers a file,
 * reading the file otherwise. Every matching session is reported once. Throws only on an
 * index error (the caller then searches without it).
 */
export async function searchWithIndex(
  db: IndexDb,
  targets: readonly SearchTarget[],
  query: Query,
  opts: IndexedSearchOptions,
): Promise<{ searched: number; matched: number; aborted: boolean; fromIndex: number; readWhole: number }> {
  const terms = textTerms(query);
  const result = { searched: 0, matched: 0, aborted: false, fromIndex: 0, readWhole: 0 };
  if (terms.length === 0 || query.terms.some((t) => t.kind === "never")) return result;
  // One turn of the event loop first: a key that came meanwhile aborts this search before
  // its queries block the thread.
  await yieldToLoop();
  if (opts.signal?.aborted) return { ...result, aborted: true };
  const { readWhole, fromIndex, decided } = classify(db, targets, terms, opts.includeTools, opts.known, opts.need);
  // Best first: a session whose own fields hold more of the words ranks above one that needs
  // its conversation for more of them (src/search/plan.ts), whatever the order of the targets
  // (sorted stably: within one count, theirs).
  if (opts.need) fromIndex.sort((a, b) => needed(a[2], terms.length) - needed(b[2], terms.length));
  result.searched += decided;
  opts.onProgress?.(result.searched);
  const report = (hit: IndexedHit) => {
    result.matched++;
    opts.onMatch(hit);
  };
  let sinceYield = 0;
  for (const [t, linesOf, need] of fromIndex) {
    const lines = linesOf();
    if (opts.signal?.aborted) break;
    // Give the UI its turn now and then: hits are reported as they are decided.
    if (++sinceYield >= 200) {
      sinceYield = 0;
      opts.onProgress?.(result.searched);
      await yieldToLoop();
      if (opts.signal?.aborted) break;
    }
    let hit: BodyHit | null | undefined;
    try {
      hit = verify(t.path, lines, terms, need, opts.includeTools, opts.snippets ?? true);
    } catch {
      opts.onUnreadable?.(t.path);
      hit = null; // gone since the scan: not a match, as without the index
    }
    if (hit === undefined) {
      readWhole.push(t);
      continue;
    }
    result.searched++;
    result.fromIndex++;
    if (hit !== null) report({ path: t.path, ...hit, fromIndex: true, lines: lines.lines });
  }
  opts.onProgress?.(result.searched);
  await searchEach(
    readWhole.map((t) => t.path),
    terms,
    opts,
    (path, hit) => {
      result.searched++;
      result.readWhole++;
      if (hit !== null) report({ path, ...hit, fromIndex: false, lines: [] });
      opts.onProgress?.(result.searched);
    },
  );
  result.aborted = !!opts.signal?.aborted;
  return result;
}

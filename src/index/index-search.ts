import { closeSync, openSync } from "node:fs";
import type { SessionEntry } from "../model/types.js";
import { foldAccents } from "../search/fold.js";
import {
  entryHit,
  matchEntry,
  searchEach,
  textTerms,
  type EntryHit,
  type SearchTarget,
  type TextTerm,
} from "../search/fulltext.js";
import type { Query } from "../search/query.js";
import { fsPath } from "../store/fs-path.js";
import { readRange } from "../store/read-range.js";
import type { IndexDb } from "./index-db.js";

/*
 * Full-text search answered by the index. The FTS table names candidate lines (every
 * line that could hold a term: trigrams are a superset of substring matches); those lines
 * are read back from their files and checked by matchEntry, the very step the index-free
 * search runs on every line, in file order. So the sessions found and their snippets are
 * the same as without the index. Files the index does not cover as they are now (new,
 * appended to, a line too long to index) are searched by reading them, as before.
 */

export interface IndexedHit {
  path: string;
  /** The first hit's snippet, as the index-free search makes it. */
  snippet: string;
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
function gramsOf(t: TextTerm): string[] | null {
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
function ftsQuery(grams: string[]): string {
  return grams.map((g) => `"${g.replace(/"/g, '""')}"`).join(" AND ");
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

interface TextState {
  fid: number;
  path: string;
  text_size: number | null;
  text_mtime: number | null;
  text_whole: number;
  text_tools: number;
}

/** Every file's text state, read again only when the index changed (the browser searches at every key). */
const textStateMemo = new WeakMap<IndexDb, { mark: string; byPath: Map<string, TextState> }>();

function textStates(db: IndexDb): Map<string, TextState> {
  const mark = db.changeMark();
  const had = textStateMemo.get(db);
  if (had?.mark === mark) return had.byPath;
  const rows = db
    .q("SELECT fid, path, text_size, text_mtime, text_whole, text_tools FROM files")
    .all() as unknown as TextState[];
  const byPath = new Map(rows.map((r) => [r.path, r]));
  textStateMemo.set(db, { mark, byPath });
  return byPath;
}

/**
 * Whether the index covers a target as it is now: text indexed at this very size and mtime,
 * every line, and the tool texts too when they are searched. Its fid, or undefined when not
 * covered. One lookup per target, no map of its own: the browser asks it of every session
 * at every key.
 */
function coveredFid(byPath: Map<string, TextState>, t: SearchTarget, includeTools: boolean): number | undefined {
  const r = byPath.get(t.path);
  if (!r || r.text_whole !== 1 || r.text_size !== t.bytes || r.text_mtime !== t.mtimeMs) return undefined;
  return !includeTools || r.text_tools === 1 ? r.fid : undefined;
}

/**
 * Whether the index has read a target's text as the file is now (and its tool texts too,
 * when they are searched): every line, or all but those it cannot hold (a torn last line,
 * a line too long: coveredFid leaves such a file to reading, and indexing it again would
 * leave the same).
 */
function caughtUpWith(byPath: Map<string, TextState>, t: SearchTarget, includeTools: boolean): boolean {
  const r = byPath.get(t.path);
  return !!r && r.text_size === t.bytes && r.text_mtime === t.mtimeMs && (!includeTools || r.text_tools === 1);
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
  return {
    gen,
    fid: targets.map((t) => coveredFid(byPath, t, false) ?? -1),
    tools: targets.map((t) => (coveredFid(byPath, t, true) === undefined ? 0 : 1)),
    caughtUp: [
      targets.every((t) => caughtUpWith(byPath, t, false)) ? 1 : 0,
      targets.every((t) => caughtUpWith(byPath, t, true)) ? 1 : 0,
    ],
  };
}

/** Whether `c` is still what coverageOf would say (the caller vouches that the targets are the same). */
export function stillCovers(db: IndexDb, c: Coverage): boolean {
  return db.meta("text_gen") === c.gen;
}

/** A target's fid when the index covers it (coveredFid), as a kept Coverage says. */
export type KnownCoverage = (t: SearchTarget, includeTools: boolean) => number | undefined;

/** One candidate line read back, or undefined when it is not where the index says (the file changed under it). */
function readLine(fd: number, { off, len }: Candidate): SessionEntry | null | undefined {
  // The line with the newline before and after it: both must be there.
  const from = off === 0 ? 0 : off - 1;
  const lead = off - from;
  const buf = readRange(fd, from, len + 1 + lead);
  if ((lead === 1 && buf[0] !== 0x0a) || buf.length !== len + 1 + lead || buf[buf.length - 1] !== 0x0a) {
    return undefined;
  }
  try {
    const entry = JSON.parse(buf.toString("utf8", lead, lead + len)) as SessionEntry;
    return entry && typeof entry === "object" ? entry : null;
  } catch {
    return undefined;
  }
}

function withFile<T>(path: string, fn: (fd: number) => T): T {
  const fd = openSync(fsPath(path), "r");
  try {
    return fn(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Checks a file's candidate lines in file order, as the full search would meet them,
 * until every term is found. Returns the first hit's snippet (or "" without snippets) when
 * all are, null when not; undefined when a line is not where the index says: the caller
 * then reads the file whole.
 */
function verify(
  path: string,
  sorted: readonly Candidate[],
  terms: readonly TextTerm[],
  includeTools: boolean,
  withSnippet: boolean,
): string | null | undefined {
  const pending = new Set(terms);
  let snippet: string | null = null;
  return withFile(path, (fd) => {
    for (const c of sorted) {
      const entry = readLine(fd, c);
      if (entry === undefined) return undefined;
      if (entry === null) continue;
      // The snippet and the verdict come from the one running set, exactly as the full search.
      // (Called before ??=, which would skip the call once a snippet is set.)
      const hit = matchEntry(entry, pending, includeTools, withSnippet);
      snippet ??= hit;
      if (pending.size === 0) return snippet;
    }
    return null;
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
function fidLookup(db: IndexDb, includeTools: boolean, known?: KnownCoverage): (t: SearchTarget) => number | undefined {
  if (known) return (t) => known(t, includeTools);
  let byPath: Map<string, TextState> | undefined;
  return (t) => coveredFid((byPath ??= textStates(db)), t, includeTools);
}

/** What the index says of a target: no match (null), these lines to check, or read it whole (undefined). */
type Verdict = null | (() => Candidate[]) | undefined;

/**
 * The index's verdict on any target, decided when asked: a caller that ranks ten thousand
 * sessions asks of each once, and a set of the ones with no match made up front cost a
 * pass of its own (for a word in no session, all of them).
 */
function verdicts(
  db: IndexDb,
  terms: readonly TextTerm[],
  includeTools: boolean,
  known?: KnownCoverage,
): (t: SearchTarget) => Verdict {
  const gramSets = terms.map(gramsOf).filter((g): g is string[] => g !== null);
  if (gramSets.length === 0) return () => undefined;
  // Every term narrowed: a file is a candidate only if each term has a line in it.
  const perTerm = gramSets.map((g) => candidatesOf(db, g, includeTools));
  const fidOf = fidLookup(db, includeTools, known);
  const allNarrowed = gramSets.length === terms.length;
  return (t) => {
    const fid = fidOf(t);
    if (fid === undefined) return undefined;
    for (const m of perTerm) if (!m.has(fid)) return null;
    if (!allNarrowed) return undefined; // a short word or a pattern: the index only narrowed the files
    const lists = perTerm.map((m) => m.get(fid)!);
    return () => inFileOrder(lists);
  };
}

interface Classified {
  /** Targets the index does not cover as they are now (or cannot narrow): read whole. */
  readWhole: SearchTarget[];
  /** Targets whose candidate lines the index names, with those lines in file order. */
  fromIndex: Array<[SearchTarget, () => Candidate[]]>;
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
): Classified {
  const verdictOf = verdicts(db, terms, includeTools, known);
  const out: Classified = { readWhole: [], fromIndex: [], decided: 0 };
  for (const t of targets) {
    const v = verdictOf(t);
    if (v === null) out.decided++;
    else if (v === undefined) out.readWhole.push(t);
    else out.fromIndex.push([t, v]);
  }
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
  /** False when the index says the target's file holds no match (checking it would say null). */
  mayMatch(t: SearchTarget): boolean;
  /**
   * The file's hit (its snippet left empty), or null: its candidate lines read where the
   * index covers it, else the file read, as searchWithIndex decides each target.
   */
  check(t: SearchTarget): Promise<IndexedHit | null>;
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
  { lazyAbove = LAZY_ABOVE, lazyMisses = LAZY_MISSES }: { lazyAbove?: number; lazyMisses?: number } = {},
): IndexedPlan | null {
  const terms = textTerms(query);
  if (terms.length === 0 || query.terms.some((t) => t.kind === "never")) return null;
  const gramSets = terms.map(gramsOf);
  const readWhole = async (path: string): Promise<IndexedHit | null> => {
    let hit: IndexedHit | null = null;
    await searchEach([path], terms, { includeTools }, (p, snippet) => {
      if (snippet !== null) hit = { path: p, snippet, fromIndex: false, lines: [] };
    });
    return hit;
  };
  /** A covered file's hit out of its candidate lines (in file order), or null; read whole when a line is not where the index says. */
  const checkLines = async (path: string, l: Candidate[]): Promise<IndexedHit | null> => {
    let snippet: string | null | undefined;
    try {
      snippet = verify(path, l, terms, includeTools, false);
    } catch {
      return null; // gone since the scan: not a match, as without the index
    }
    if (snippet === undefined) return readWhole(path);
    return snippet === null ? null : { path, snippet, fromIndex: true, lines: l };
  };
  const exact = (): IndexedPlan => {
    const verdictOf = verdicts(db, terms, includeTools, known);
    return {
      mayMatch: (t) => verdictOf(t) !== null,
      async check(t) {
        const v = verdictOf(t);
        if (v === null) return null;
        return v ? checkLines(t.path, v()) : readWhole(t.path);
      },
    };
  };
  if (!gramSets.every((g) => g !== null)) return exact();
  const rows = gramSets.map((g) => matchingRows(db, g, includeTools));
  // A rare word's match runs again in verdicts, joined with its lines' files: under a
  // millisecond at that size (0.1–0.8 ms on the bench's store).
  if (rows.every((r) => r.length <= lazyAbove)) return exact();
  return lazyPlan(db, rows, { includeTools, known, misses: lazyMisses }, checkLines, readWhole, exact);
}

/** After this many files checked and found to hold no candidate line, a lazy plan becomes exact. */
const LAZY_MISSES = 256;

/**
 * A plan for common words: every term's candidate lines as FTS rowids alone (no join with
 * their files: a word in most sessions names tens of thousands of lines), and a file's own
 * candidates worked out only when it is checked. Every file may match until then; a caller
 * that checks the best few meets few that do not, and after LAZY_MISSES of those the plan
 * asks the index for every file at once (`exact`).
 */
function lazyPlan(
  db: IndexDb,
  rows: Float64Array[],
  { includeTools, known, misses: maxMisses }: { includeTools: boolean; known?: KnownCoverage; misses: number },
  checkLines: (path: string, l: Candidate[]) => Promise<IndexedHit | null>,
  readWhole: (path: string) => Promise<IndexedHit | null>,
  exact: () => IndexedPlan,
): IndexedPlan {
  const fidOf = fidLookup(db, includeTools, known);
  let misses = 0;
  let then: IndexedPlan | undefined;
  return {
    mayMatch: (t) => then?.mayMatch(t) ?? true,
    async check(t) {
      if (then) return then.check(t);
      const { path } = t;
      const fid = fidOf(t);
      if (fid === undefined) return readWhole(path);
      let l: Candidate[] | undefined;
      try {
        l = fileCandidates(db, fid, rows, includeTools);
      } catch {
        return readWhole(path); // the index failed under us: the file says
      }
      if (l) return checkLines(path, l);
      if (++misses >= maxMisses) {
        try {
          then = exact();
        } catch {
          then = { mayMatch: () => true, check: (x) => readWhole(x.path) };
        }
      }
      return null;
    },
  };
}

/** A term's candidate lines (FTS rowids, which are the lines' rids), ascending. */
function matchingRows(db: IndexDb, grams: string[], includeTools: boolean): Float64Array {
  const lists: Float64Array[] = [];
  for (const table of includeTools ? ["chat", "tools"] : ["chat"]) {
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
function parseNumbers(text: string): Float64Array {
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
 * A file's candidate lines in file order: its lines that are a candidate of some term, when
 * every term has one in it (as classify decides), else undefined (no match). Without tool
 * output its tool lines are not asked for: their rows are in the tools table, never a candidate.
 */
function fileCandidates(
  db: IndexDb,
  fid: number,
  rows: Float64Array[],
  includeTools: boolean,
): Candidate[] | undefined {
  const lines = db
    .q(`SELECT rid, off, len FROM lines WHERE fid = ?${includeTools ? "" : " AND tool = 0"} ORDER BY off`)
    .all(fid) as unknown as Array<Candidate & { rid: number }>;
  const found = rows.map(() => false);
  const out: Candidate[] = [];
  let lastOff = -1;
  for (const l of lines) {
    let any = false;
    for (let i = 0; i < rows.length; i++) {
      if (has(rows[i], l.rid)) found[i] = any = true;
    }
    // One line per offset, as inFileOrder keeps it.
    if (any && l.off !== lastOff) {
      out.push({ off: l.off, len: l.len });
      lastOff = l.off;
    }
  }
  return found.every(Boolean) ? out : undefined;
}

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

export interface IndexedSearchOptions {
  includeTools: boolean;
  signal?: AbortSignal;
  onMatch(hit: IndexedHit): void;
  onProgress?(searched: number): void;
  concurrency?: number;
  /** False: hits carry no snippet (a caller that ranks first and shows a few makes them with hitsOf). */
  snippets?: boolean;
  /** What the index covers, as kept (else read from it). */
  known?: KnownCoverage;
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
  const { readWhole, fromIndex, decided } = classify(db, targets, terms, opts.includeTools, opts.known);
  result.searched += decided;
  opts.onProgress?.(result.searched);
  const report = (hit: IndexedHit) => {
    result.matched++;
    opts.onMatch(hit);
  };
  let sinceYield = 0;
  for (const [t, linesOf] of fromIndex) {
    const lines = linesOf();
    if (opts.signal?.aborted) break;
    // Give the UI its turn now and then: hits are reported as they are decided.
    if (++sinceYield >= 200) {
      sinceYield = 0;
      opts.onProgress?.(result.searched);
      await yieldToLoop();
      if (opts.signal?.aborted) break;
    }
    let snippet: string | null | undefined;
    try {
      snippet = verify(t.path, lines, terms, opts.includeTools, opts.snippets !== false);
    } catch {
      snippet = null; // gone since the scan: not a match, as without the index
    }
    if (snippet === undefined) {
      readWhole.push(t);
      continue;
    }
    result.searched++;
    result.fromIndex++;
    if (snippet !== null) report({ path: t.path, snippet, fromIndex: true, lines });
  }
  opts.onProgress?.(result.searched);
  await searchEach(
    readWhole.map((t) => t.path),
    terms,
    opts,
    (path, snippet) => {
      result.searched++;
      result.readWhole++;
      if (snippet !== null) report({ path, snippet, fromIndex: false, lines: [] });
      opts.onProgress?.(result.searched);
    },
  );
  result.aborted = !!opts.signal?.aborted;
  return result;
}

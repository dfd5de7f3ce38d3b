import type { BodyHit, BodyNeed, ListPlace, SnippetText } from "../../search/fulltext.js";
import { searchPlan } from "../../search/plan.js";
import type { MatchContext, Query } from "../../search/query.js";
import {
  allSessionsTieBreak,
  type SortKey,
  sortSessions,
  threadSessions,
  type ThreadRow,
  type TieBreak,
} from "../../search/sort.js";
import { ROW_SHOWS, whyMatched } from "../../search/why.js";
import { cwdScope } from "../../store/scope.js";
import type { ListedSession, SessionMap } from "./sessions.js";
import { listContext, type ListContext } from "./fieldContext.js";
import { fieldRanker } from "./termScores.js";

/** This folder's sessions, every folder's, or every folder's of this machine and every host (src/remote). */
export type Scope = "cwd" | "all" | "hosts";

/** `snippet`: the line under a row that says why it matched when the row does not show it (a full-text hit, a hit in the first message behind a name, or in the id). */
export type ListRow = ThreadRow<ListedSession> & { snippet?: string };

export interface Derived {
  rows: ListRow[];
  /** Sessions in the scope before the query filter. */
  scopeTotal: number;
}

/** "/a/b/" and "/a/b" are the same folder. */
export function sameFolder(a: string, b: string): boolean {
  const trim = (s: string) => (s.length > 1 ? s.replace(/[\\/]+$/, "") : s);
  return trim(a) === trim(b);
}

let scopeMemo: { key: string; test: (s: { path: string; cwd: string }) => boolean } | undefined;

/**
 * "This folder": pi's list(cwd) rule (src/store/scope.ts) when the store folder is known,
 * else the header cwd (tests that build sessions without a store).
 */
export function inScope(s: ListedSession, scope: Scope, cwd: string, storeDir?: string): boolean {
  // Another machine's sessions are shown with every host's, and only then.
  if (s.host !== undefined) return scope === "hosts";
  if (scope !== "cwd") return true;
  if (storeDir === undefined) return sameFolder(s.cwd, cwd);
  const key = `${storeDir}\0${cwd}`;
  if (scopeMemo?.key !== key) scopeMemo = { key, test: cwdScope(storeDir, cwd) };
  return scopeMemo.test(s);
}

/** A session not of the list's last derive (bodyNeed): its folded fields kept for the next keys. */
const KEEP_FOLDED: MatchContext = { keepFolded: true };

/**
 * What each session needs of its conversation for the query (SearchPlan.needOf), for the
 * full-text search; null too for a session whose own fields rank it above anything its
 * conversation could add (every word in its name, first message, id or folder): its row is
 * the same whatever its file holds, so the file is not read (at 50,000 sessions, a word in
 * every first message named a tenth of them).
 */
export function bodyNeed(sessions: SessionMap, query: Query): BodyNeed {
  const plan = searchPlan(query, KEEP_FOLDED);
  const all = plan.terms.map(() => true);
  // The sessions of the list's last derive: their term scores are kept (termScores.ts).
  const base = baseMemo?.sessions === sessions ? baseMemo : undefined;
  const at = base && (base.at ??= new Map(base.list.map((s, i) => [s.path, i])));
  const kept = base && fieldRanker(query, fieldsOf(base), base.list);
  return (path) => {
    const i = at?.get(path);
    if (i !== undefined) {
      const need = kept!.need(i);
      if (need === null || need.some(Boolean)) return need;
      return kept!.held(i, all).byText ? need : null;
    }
    const s = sessions.get(path);
    const need = s ? plan.needOf(s) : null;
    if (need === null || need.some(Boolean)) return need;
    // A hit counts only for a word its fields hold by scattered letters (below BODY_RANK).
    return plan.rank(s!, all).byText ? need : null;
  };
}

/** How the list is laid out beyond its order and query (deriveRows' options). */
export interface ListShape {
  sort: SortKey;
  namedOnly?: boolean;
  hosts?: readonly string[];
}

/**
 * Where a session would stand in the list the last derive made, were its conversation to
 * hold `held`, as deriveRows lays rows out: none when namedOnly hides it; this machine's
 * first, then each host's (byMachine); by rank, then the list's order, or, threaded, by its
 * place among every session in scope threaded (a rank moves no thread). The full-text search
 * checks the rows about to be shown first. Undefined when the last derive was of other
 * sessions, or in another order.
 */
export function listPlace(sessions: SessionMap, query: Query, shape: ListShape): ListPlace | undefined {
  const base = baseMemo?.sessions === sessions && baseMemo.sort === shape.sort ? baseMemo : undefined;
  if (!base) return undefined;
  const at = (base.at ??= new Map(base.list.map((s, i) => [s.path, i])));
  const kept = fieldRanker(query, fieldsOf(base), base.list);
  const machine = machineRank(shape.hosts);
  // Made at the first session asked of, for this search only (not kept on the base order).
  let threadAt: Map<string, number> | undefined;
  return (path, held) => {
    const i = at.get(path);
    if (i === undefined) return null;
    const s = base.list[i];
    if (hiddenByName(s, shape.namedOnly)) return null;
    const rank = kept.held(i, held).rank;
    if (rank === null) return null;
    if (shape.sort !== "threaded") return { group: machine(s.host), rank, at: i };
    threadAt ??= new Map(byMachine(threadSessions(base.list), shape.hosts).map((r, j) => [r.session.path, j]));
    return { rank: 0, at: threadAt.get(path) ?? i };
  };
}

/** The sessions in scope in the chosen order, and the tie-break it used: the same for every derive until one of these changes. */
interface BaseOrder {
  sessions: SessionMap;
  scope: Scope;
  cwd: string;
  storeDir: string | undefined;
  sort: SortKey;
  list: ListedSession[];
  tie: TieBreak;
  /** Each session's place in `list` by path (made when first asked for). */
  at?: Map<string, number>;
  /** How a word is matched against `list` (fieldContext.ts; made when first asked for). */
  fields?: ListContext;
}

const fieldsOf = (base: BaseOrder) => (base.fields ??= listContext(base.list));

/** What a base order is made of: the sessions, and which of them in which order. */
type BaseKey = { scope: Scope; cwd: string; storeDir?: string; sort: SortKey };

const isBaseOf = (m: BaseOrder | undefined, sessions: SessionMap, k: BaseKey): m is BaseOrder =>
  m?.sessions === sessions && m.scope === k.scope && m.cwd === k.cwd && m.storeDir === k.storeDir && m.sort === k.sort;

/**
 * Makes the field text of the list the last derive laid out ahead of the first word typed,
 * if it is of these sessions, in this scope and order (nothing otherwise): the search bar
 * calls it as it opens. At 50,000 sessions the first key typed took 200-290 ms to make it,
 * and the keys typed after it queued behind it and behind each other (every one a derive and
 * a frame), up to ~0.7 s at the last key.
 */
export function warmListFields(sessions: SessionMap, key: BaseKey): void {
  if (!isBaseOf(baseMemo, sessions, key)) return;
  warmed = fieldsOf(baseMemo);
  warmed.warm();
}

/** The search bar closed: what warmListFields made is let go if no word was typed (made again at the next opening). */
export function coolListFields(): void {
  warmed?.cool();
  warmed = undefined;
}

/**
 * The context warmListFields warmed: cooled by coolListFields even when the store changed
 * while the bar was open (pi wrote: the last derive's base is then a new one, never warmed,
 * and the text warmed would have stayed held by fieldContext.ts's last text).
 */
let warmed: ListContext | undefined;

/**
 * The last base order made. Hits stream in a batch at a time while a search runs, and each
 * batch derives the rows again over the same sessions: sorting 50,000 of them again each
 * time was most of a batch's cost. (Sessions are never changed in place: a changed store is
 * a new map.)
 */
let baseMemo: BaseOrder | undefined;

/** pi's tie-break of sessions of equal sort key (see deriveRows). */
function tieBreakOf(scope: Scope, storeDir: string | undefined, list: readonly ListedSession[]): TieBreak {
  const all = scope !== "cwd";
  return all && storeDir !== undefined ? allSessionsTieBreak(storeDir, list) : all ? "mtime" : "name";
}

function baseOrder(
  sessions: SessionMap,
  opts: { scope: Scope; cwd: string; storeDir?: string; sort: SortKey },
): BaseOrder {
  if (isBaseOf(baseMemo, sessions, opts)) return baseMemo;
  const inIt: ListedSession[] = [];
  for (const s of sessions.values()) if (inScope(s, opts.scope, opts.cwd, opts.storeDir)) inIt.push(s);
  const tie = tieBreakOf(opts.scope, opts.storeDir, inIt);
  baseMemo = { sessions, ...opts, storeDir: opts.storeDir, list: sortSessions(inIt, opts.sort, tie), tie };
  return baseMemo;
}

/**
 * A row whose snippet (why it matched, or a full-text hit's) is made when the row is drawn,
 * not for all 10,000 rows at every key (that cost 60 ms a key), and remembered. A getter of
 * the class (one per row, defined on 50,000 objects, cost more than the rest of a derive);
 * what it is made from held as fields, not in a closure per row: every key's rows outlive a
 * young collection or two, and at 50,000 rows a closure and its context each were two thirds
 * of what each key left for the old space to collect.
 */
class SearchedRow implements ListRow {
  private why: string | undefined | null = null;
  constructor(
    readonly session: ListedSession,
    readonly depth: number,
    readonly prefix: string,
    private readonly query: Query,
    private readonly hit: SnippetText | undefined,
  ) {}
  get snippet(): string | undefined {
    if (this.why === null)
      this.why = this.hit !== undefined ? String(this.hit) : whyMatched(this.query, this.session, ROW_SHOWS);
    return this.why;
  }
}

const NO_MATCH = { rank: null, byText: false } as const;
const fieldsOnly = (rank: number | null) => (rank === null ? NO_MATCH : { rank, byText: false });

/** Scope → query filter → sort → (threaded) nesting, or substring hits first when searching. */
export function deriveRows(
  sessions: SessionMap,
  opts: {
    scope: Scope;
    cwd: string;
    storeDir?: string;
    query: Query;
    sort: SortKey;
    fullText?: ReadonlyMap<string, BodyHit>;
    /** Only sessions with a name (pi's named-only filter: a name that is not blank). */
    namedOnly?: boolean;
    /** The hosts, in order: their rows follow this machine's, in this order. */
    hosts?: readonly string[];
  },
): Derived {
  // Full-text hits (path → what the conversation holds) count for each word the fields lack (searchPlan).
  const ft = opts.fullText && opts.fullText.size > 0 ? opts.fullText : undefined;
  const snippets = new Map<string, SnippetText>();
  const base = baseOrder(sessions, opts);
  const scopeTotal = base.list.length;
  // In the base order: sorted already.
  let sorted: ListedSession[] = [];
  const scores: number[] = [];
  // Without a hit, by its fields alone: each term's score kept from the keys before.
  const byFields = fieldRanker(opts.query, fieldsOf(base), base.list);
  for (let i = 0; i < base.list.length; i++) {
    const s = base.list[i];
    if (hiddenByName(s, opts.namedOnly)) continue;
    const hit = ft?.get(s.path);
    const r = hit ? byFields.held(i, hit.held) : fieldsOnly(byFields(i));
    if (r.byText) snippets.set(s.path, hit!.snippet);
    if (r.rank === null) continue;
    sorted.push(s);
    scores.push(r.rank);
  }
  const searching = opts.query.terms.length > 0;
  // pi breaks ties as its listAll does across its default store (file mtime), and by file
  // name within one folder: that of the rows left, which may all lie in the store's folder
  // when not all in scope do.
  const tie = base.tie === "mtime" ? tieBreakOf(opts.scope, opts.storeDir, sorted) : base.tie;
  if (tie !== base.tie) {
    const scoreOf = new Map(sorted.map((s, i) => [s.path, scores[i]]));
    sorted = sortSessions(sorted, opts.sort, tie);
    sorted.forEach((s, i) => (scores[i] = scoreOf.get(s.path)!));
  }
  const withSnippet = (r: ListRow): ListRow => {
    const hit = snippets.get(r.session.path);
    if (typeof hit === "string") return { ...r, snippet: hit };
    if (!searching) return r;
    return new SearchedRow(r.session, r.depth, r.prefix, opts.query, hit);
  };
  if (opts.sort === "threaded") {
    const threads = byMachine(threadSessions(sorted), opts.hosts);
    return { rows: searching ? threads.map(withSnippet) : threads, scopeTotal };
  }
  // Stable: within one score the chosen sort order stays (scores ordered only when searching).
  if (searching) {
    const at = sorted.map((_, i) => i);
    at.sort((a, b) => scores[b] - scores[a] || a - b);
    sorted = at.map((i) => sorted[i]);
  }
  const rows = sorted.map((session) => withSnippet({ session, depth: 0, prefix: "" }));
  return { rows: byMachine(rows, opts.hosts), scopeTotal };
}

/**
 * This machine's rows first, then each host's in the order the hosts were given, each
 * machine's in the list's own order (a thread stays whole: a fork never crosses machines).
 */
function byMachine(rows: ListRow[], hosts: readonly string[] = []): ListRow[] {
  if (!rows.some((r) => r.session.host !== undefined)) return rows;
  const rank = machineRank(hosts);
  let root: string | undefined;
  const keyed = rows.map((r, i) => {
    if (r.depth === 0) root = r.session.host;
    return { r, i, k: rank(root) };
  });
  return keyed.sort((a, b) => a.k - b.k || a.i - b.i).map((x) => x.r);
}

/** Where a machine's rows come (lower first): this machine's, then each host's in the order given, then any other. */
function machineRank(hosts: readonly string[] = []): (host: string | undefined) => number {
  return (h) => (h === undefined ? -1 : hosts.indexOf(h) < 0 ? hosts.length : hosts.indexOf(h));
}

/** Whether pi's named-only filter hides a session (a name that is not blank). */
function hiddenByName(s: ListedSession, namedOnly: boolean | undefined): boolean {
  return !!namedOnly && !s.name?.trim();
}

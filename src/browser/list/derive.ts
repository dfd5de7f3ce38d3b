import type { BodyHit, BodyNeed, SnippetText } from "../../search/fulltext.js";
import { searchPlan } from "../../search/plan.js";
import type { MatchContext, Query } from "../../search/query.js";
import { allSessionsTieBreak, type SortKey, sortSessions, threadSessions, type ThreadRow } from "../../search/sort.js";
import { ROW_SHOWS, whyMatched } from "../../search/why.js";
import { cwdScope } from "../../store/scope.js";
import type { ListedSession, SessionMap } from "./sessions.js";

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

/** Every key typed matches every session again: their folded fields are kept between keys. */
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
  return (path) => {
    const s = sessions.get(path);
    const need = s ? plan.needOf(s) : null;
    if (need === null || need.some(Boolean)) return need;
    // A hit counts only for a word its fields hold by scattered letters (below BODY_RANK).
    return plan.rank(s!, all).byText ? need : null;
  };
}

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
  const scored: { s: ListedSession; score: number }[] = [];
  // Full-text hits (path → what the conversation holds) count for each word the fields lack (searchPlan).
  const ft = opts.fullText && opts.fullText.size > 0 ? opts.fullText : undefined;
  const plan = searchPlan(opts.query, KEEP_FOLDED);
  const snippets = new Map<string, SnippetText>();
  let scopeTotal = 0;
  for (const s of sessions.values()) {
    if (!inScope(s, opts.scope, opts.cwd, opts.storeDir)) continue;
    scopeTotal++;
    if (opts.namedOnly && !s.name?.trim()) continue;
    const hit = ft?.get(s.path);
    const r = plan.rank(s, hit?.held);
    if (r.byText) snippets.set(s.path, hit!.snippet);
    if (r.rank !== null) scored.push({ s, score: r.rank });
  }
  const searching = opts.query.terms.length > 0;
  // Scores order rows only when searching (a map of 10,000 paths costs a few ms a frame).
  const scoreOf = searching ? new Map(scored.map((x) => [x.s.path, x.score])) : undefined;
  // pi breaks ties as its listAll does across its default store (file mtime), and by file
  // name within one folder: this folder's sessions, or a custom folder's (flat) files.
  const all = opts.scope !== "cwd";
  let sorted = sortSessions(
    scored.map((x) => x.s),
    opts.sort,
    all && opts.storeDir !== undefined
      ? allSessionsTieBreak(
          opts.storeDir,
          scored.map((x) => x.s),
        )
      : all
        ? "mtime"
        : "name",
  );
  const withSnippet = (r: ListRow): ListRow => {
    const hit = snippets.get(r.session.path);
    if (typeof hit === "string") return { ...r, snippet: hit };
    if (!searching) return r;
    // Why it matched (and a full-text hit's snippet) is made when a row is drawn, not for all
    // 10,000 rows at every key (that cost 60 ms a key): a lazy, remembered property.
    let why: string | undefined | null = null;
    const make = () => (hit !== undefined ? String(hit) : whyMatched(opts.query, r.session, ROW_SHOWS));
    return Object.defineProperty({ ...r }, "snippet", {
      enumerable: true,
      get: () => (why === null ? (why = make()) : why),
    });
  };
  if (opts.sort === "threaded") {
    const threads = byMachine(threadSessions(sorted), opts.hosts);
    return { rows: searching ? threads.map(withSnippet) : threads, scopeTotal };
  }
  // Stable: within one score the chosen sort order stays.
  if (scoreOf) sorted = sorted.sort((a, b) => scoreOf.get(b.path)! - scoreOf.get(a.path)!);
  const rows = sorted.map((session) => withSnippet({ session, depth: 0, prefix: "" }));
  return { rows: byMachine(rows, opts.hosts), scopeTotal };
}

/**
 * This machine's rows first, then each host's in the order the hosts were given, each
 * machine's in the list's own order (a thread stays whole: a fork never crosses machines).
 */
function byMachine(rows: ListRow[], hosts: readonly string[] = []): ListRow[] {
  if (!rows.some((r) => r.session.host !== undefined)) return rows;
  const rank = (h: string | undefined) =>
    h === undefined ? -1 : hosts.indexOf(h) < 0 ? hosts.length : hosts.indexOf(h);
  let root: string | undefined;
  const keyed = rows.map((r, i) => {
    if (r.depth === 0) root = r.session.host;
    return { r, i, k: rank(root) };
  });
  return keyed.sort((a, b) => a.k - b.k || a.i - b.i).map((x) => x.r);
}

import { matchSession, type Query } from "../../src/search/query.js";
import { type SortKey, sortSessions, threadSessions, type ThreadRow } from "../../src/search/sort.js";
import type { ListedSession, SessionMap } from "./sessions.js";

export type Scope = "cwd" | "all";

export type ListRow = ThreadRow<ListedSession>;

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

export function inScope(s: ListedSession, scope: Scope, cwd: string): boolean {
  return scope === "all" || sameFolder(s.cwd, cwd);
}

/** Scope → query filter → sort → (threaded) nesting, or substring hits first when searching. */
export function deriveRows(sessions: SessionMap, opts: { scope: Scope; cwd: string; query: Query; sort: SortKey }): Derived {
  const scored: { s: ListedSession; score: number }[] = [];
  let scopeTotal = 0;
  for (const s of sessions.values()) {
    if (!inScope(s, opts.scope, opts.cwd)) continue;
    scopeTotal++;
    const score = matchSession(opts.query, s);
    if (score !== null) scored.push({ s, score });
  }
  const scoreOf = new Map(scored.map((x) => [x.s.path, x.score]));
  let sorted = sortSessions(
    scored.map((x) => x.s),
    opts.sort,
  );
  if (opts.sort === "threaded") return { rows: threadSessions(sorted), scopeTotal };
  // Stable: within one score the chosen sort order stays.
  if (opts.query.terms.length > 0) sorted = sorted.sort((a, b) => scoreOf.get(b.path)! - scoreOf.get(a.path)!);
  return { rows: sorted.map((session) => ({ session, depth: 0, prefix: "" })), scopeTotal };
}

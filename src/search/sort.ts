import { basename, dirname, resolve } from "node:path";
import type { SessionSummary } from "../model/types.js";

export const SORTS = ["recent", "created", "name", "messages", "size", "threaded"] as const;
export type SortKey = (typeof SORTS)[number];

export function nextSort(s: SortKey): SortKey {
  return SORTS[(SORTS.indexOf(s) + 1) % SORTS.length];
}

type Sortable = Pick<
  SessionSummary,
  "path" | "name" | "firstMessage" | "modified" | "created" | "messageCount" | "bytes" | "mtimeMs"
>;

/**
 * How pi orders sessions whose `modified` is equal. Listing every folder of its default store
 * (listAll), it reads files newest first (file mtime, then file name descending); listing one
 * folder (a project's, or a custom session folder) it reads them by file name descending.
 * Its final sort by `modified` is stable, so that reading order breaks the ties.
 */
export type TieBreak = "mtime" | "name";

/**
 * The tie-break of a list of every session in a store: pi's default store (files in project
 * folders) is read by listAll, newest file first; a custom folder (files directly in it) by
 * file name. Decided by where the files lie, so `--session-dir` on a default store works too.
 */
export function allSessionsTieBreak(storeDir: string, sessions: readonly { path: string }[]): TieBreak {
  const root = resolve(storeDir);
  return sessions.length > 0 && sessions.every((s) => dirname(s.path) === root) ? "name" : "mtime";
}

const title = (s: Sortable) => (s.name ?? s.firstMessage).toLowerCase();
// Path as the last tie-break keeps the order stable across batches.
const byPath = (a: Sortable, b: Sortable) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
const byName = (a: Sortable, b: Sortable) => basename(b.path).localeCompare(basename(a.path)) || byPath(a, b);
const tie = (a: Sortable, b: Sortable, t: TieBreak) =>
  t === "mtime" ? b.mtimeMs - a.mtimeMs || byName(a, b) : byName(a, b);

const COMPARE: Record<SortKey, (a: Sortable, b: Sortable, t: TieBreak) => number> = {
  recent: (a, b, t) => b.modified.getTime() - a.modified.getTime() || tie(a, b, t),
  threaded: (a, b, t) => b.modified.getTime() - a.modified.getTime() || tie(a, b, t),
  created: (a, b) => b.created.getTime() - a.created.getTime() || byPath(a, b),
  // Named sessions first, then by title.
  name: (a, b) => {
    if (!!a.name !== !!b.name) return a.name ? -1 : 1;
    const ta = title(a);
    const tb = title(b);
    return ta < tb ? -1 : ta > tb ? 1 : byPath(a, b);
  },
  messages: (a, b) => b.messageCount - a.messageCount || b.modified.getTime() - a.modified.getTime() || byPath(a, b),
  size: (a, b) => b.bytes - a.bytes || byPath(a, b),
};

/** A sorted copy. "threaded" sorts like recent; threadSessions then nests forks. */
export function sortSessions<T extends Sortable>(list: readonly T[], sort: SortKey, tieBreak: TieBreak = "name"): T[] {
  const cmp = COMPARE[sort];
  return [...list].sort((a, b) => cmp(a, b, tieBreak));
}

export interface ThreadRow<T> {
  session: T;
  depth: number;
  /** Tree glyphs to draw before the title ("" for roots). */
  prefix: string;
}

type Threadable = Pick<SessionSummary, "path" | "parentSessionPath" | "lineage" | "modified">;

function parentOf(s: Threadable): string | undefined {
  if (s.lineage.status === "resolved") return s.lineage.path;
  if (s.lineage.status === "missing") return undefined;
  return s.parentSessionPath;
}

/**
 * Orders forks under their parent. As pi's threaded picker: roots and siblings are ordered by
 * the latest activity anywhere in their subtree, newest first, ties in input order.
 * A session whose parent is not in the list (filtered out, missing) is a root.
 */
export function threadSessions<T extends Threadable>(list: readonly T[]): ThreadRow<T>[] {
  const present = new Set(list.map((s) => s.path));
  const children = new Map<string, T[]>();
  const roots: T[] = [];
  for (const s of list) {
    const p = parentOf(s);
    if (p && p !== s.path && present.has(p)) {
      let c = children.get(p);
      if (!c) children.set(p, (c = []));
      c.push(s);
    } else roots.push(s);
  }
  sortByLatestActivity(roots, children);
  const out: ThreadRow<T>[] = [];
  const seen = new Set<string>();
  // Iterative walk: deep fork chains must not overflow the stack.
  const stack: { s: T; depth: number; guides: string; last: boolean }[] = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ s: roots[i], depth: 0, guides: "", last: true });
  while (stack.length) {
    const { s, depth, guides, last } = stack.pop()!;
    if (seen.has(s.path)) continue;
    seen.add(s.path);
    out.push({ session: s, depth, prefix: depth === 0 ? "" : guides + (last ? "└─ " : "├─ ") });
    const kids = children.get(s.path);
    if (!kids) continue;
    const childGuides = depth === 0 ? "" : guides + (last ? "   " : "│  ");
    for (let i = kids.length - 1; i >= 0; i--)
      stack.push({ s: kids[i], depth: depth + 1, guides: childGuides, last: i === kids.length - 1 });
  }
  // Cycles (a → b → a) leave sessions unreached; show them as roots rather than lose them.
  for (const s of list) if (!seen.has(s.path)) out.push({ session: s, depth: 0, prefix: "" });
  return out;
}

/** Sorts roots and every child list by the newest `modified` in each subtree (iterative, cycle-safe). */
function sortByLatestActivity<T extends Threadable>(roots: T[], children: Map<string, T[]>): void {
  const latest = new Map<string, number>();
  const post: T[] = [];
  const visited = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const s = stack.pop()!;
    if (visited.has(s.path)) continue;
    visited.add(s.path);
    post.push(s);
    for (const k of children.get(s.path) ?? []) stack.push(k);
  }
  for (let i = post.length - 1; i >= 0; i--) {
    const s = post[i];
    let t = s.modified.getTime();
    for (const k of children.get(s.path) ?? []) t = Math.max(t, latest.get(k.path) ?? k.modified.getTime());
    latest.set(s.path, t);
  }
  const at = (s: T) => latest.get(s.path) ?? s.modified.getTime();
  const byLatest = (a: T, b: T) => at(b) - at(a);
  roots.sort(byLatest);
  for (const list of children.values()) list.sort(byLatest);
}

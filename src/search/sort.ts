import type { SessionSummary } from "../model/types.js";

export const SORTS = ["recent", "created", "name", "messages", "size", "threaded"] as const;
export type SortKey = (typeof SORTS)[number];

export function nextSort(s: SortKey): SortKey {
  return SORTS[(SORTS.indexOf(s) + 1) % SORTS.length];
}

type Sortable = Pick<SessionSummary, "path" | "name" | "firstMessage" | "modified" | "created" | "messageCount" | "bytes">;

const title = (s: Sortable) => (s.name ?? s.firstMessage).toLowerCase();
// Path as the last tie-break keeps the order stable across batches.
const byPath = (a: Sortable, b: Sortable) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

const COMPARE: Record<SortKey, (a: Sortable, b: Sortable) => number> = {
  recent: (a, b) => b.modified.getTime() - a.modified.getTime() || byPath(a, b),
  threaded: (a, b) => b.modified.getTime() - a.modified.getTime() || byPath(a, b),
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
export function sortSessions<T extends Sortable>(list: readonly T[], sort: SortKey): T[] {
  return [...list].sort(COMPARE[sort]);
}

export interface ThreadRow<T> {
  session: T;
  depth: number;
  /** Tree glyphs to draw before the title ("" for roots). */
  prefix: string;
}

type Threadable = Pick<SessionSummary, "path" | "parentSessionPath" | "lineage">;

function parentOf(s: Threadable): string | undefined {
  if (s.lineage.status === "resolved") return s.lineage.path;
  if (s.lineage.status === "missing") return undefined;
  return s.parentSessionPath;
}

/**
 * Orders forks under their parent, keeping the input order among siblings.
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
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ s: kids[i], depth: depth + 1, guides: childGuides, last: i === kids.length - 1 });
  }
  // Cycles (a → b → a) leave sessions unreached; show them as roots rather than lose them.
  for (const s of list) if (!seen.has(s.path)) out.push({ session: s, depth: 0, prefix: "" });
  return out;
}

import type { SessionIndex } from "./session-index.js";
import { displayOrder } from "./tree-order.js";
import { activePath } from "./tree.js";
import type { EntryNode } from "./types.js";

export const TREE_FILTERS = ["default", "no-tools", "user-only", "labelled-only", "all"] as const;
export type TreeFilter = (typeof TREE_FILTERS)[number];

export function nextFilter(f: TreeFilter): TreeFilter {
  return TREE_FILTERS[(TREE_FILTERS.indexOf(f) + 1) % TREE_FILTERS.length];
}

export interface Gutter {
  position: number;
  show: boolean;
}

export interface TreeRow {
  id: string;
  indent: number;
  showConnector: boolean;
  isLast: boolean;
  /** Shared between siblings: never mutate. */
  gutters: readonly Gutter[];
  virtualRootChild: boolean;
}

export interface TreeView {
  rows: TreeRow[];
  rowOf: Map<string, number>;
  visibleParent: Map<string, string | null>;
  visibleChildren: Map<string | null, string[]>;
  multipleRoots: boolean;
  activeIds: Set<string>;
}

const BOOKKEEPING = new Set(["label", "custom", "model_change", "thinking_level_change", "session_info"]);

/** pi's /tree filters, plus its rule that tool-call-only assistant turns are hidden (not the leaf). */
export function passesFilter(node: EntryNode, filter: TreeFilter, leafId: string | null, labels: ReadonlyMap<string, string>): boolean {
  if (node.role === "assistant" && node.id !== leafId && filter !== "all" && filter !== "labelled-only") {
    const errorOrAborted = node.stopReason !== undefined && node.stopReason !== "stop" && node.stopReason !== "toolUse";
    if (node.hasText === false && !errorOrAborted) return false;
  }
  switch (filter) {
    case "user-only":
      return node.role === "user";
    case "no-tools":
      return !BOOKKEEPING.has(node.type) && node.role !== "toolResult";
    case "labelled-only":
      return labels.has(node.id);
    case "all":
      return true;
    default:
      return !BOOKKEEPING.has(node.type);
  }
}

const orderCache = new WeakMap<SessionIndex, string[]>();
function orderOf(index: SessionIndex): string[] {
  let order = orderCache.get(index);
  if (!order) orderCache.set(index, (order = displayOrder(index.tree, index.leafId)));
  return order;
}

/**
 * The rows of a session's tree under a filter and folds: hidden entries' children attach
 * to their nearest visible ancestor; indentation grows only at branch points (and for
 * the first generation after one), as pi draws it. O(entries), no recursion.
 */
export function buildTreeView(index: SessionIndex, filter: TreeFilter, folded: ReadonlySet<string>): TreeView {
  const order = orderOf(index);
  const { parent } = index.tree;
  const hiddenByFold = new Set<string>();
  const visible = new Set<string>();
  const visibleParent = new Map<string, string | null>();
  // Nearest visible ancestor of each id (itself excluded); parents precede children in `order`.
  const nearest = new Map<string, string | null>();
  const visibleChildren = new Map<string | null, string[]>([[null, []]]);
  for (const id of order) {
    const p = parent.get(id) ?? null;
    const underFold = p !== null && (folded.has(p) || hiddenByFold.has(p));
    if (underFold) hiddenByFold.add(id);
    const anc = p === null ? null : visible.has(p) ? p : (nearest.get(p) ?? null);
    nearest.set(id, anc);
    const node = index.byId.get(id)!;
    if (underFold || !passesFilter(node, filter, index.leafId, index.labels)) continue;
    visible.add(id);
    visibleParent.set(id, anc);
    let list = visibleChildren.get(anc);
    if (!list) visibleChildren.set(anc, (list = []));
    list.push(id);
  }
  const roots = visibleChildren.get(null)!;
  const multipleRoots = roots.length > 1;
  const rows: TreeRow[] = [];
  type Frame = [id: string, indent: number, justBranched: boolean, showConnector: boolean, isLast: boolean, gutters: readonly Gutter[], vrc: boolean];
  const stack: Frame[] = [];
  for (let i = roots.length - 1; i >= 0; i--) {
    stack.push([roots[i], multipleRoots ? 1 : 0, multipleRoots, multipleRoots, i === roots.length - 1, [], multipleRoots]);
  }
  while (stack.length) {
    const [id, indent, justBranched, showConnector, isLast, gutters, vrc] = stack.pop()!;
    rows.push({ id, indent, showConnector, isLast, gutters, virtualRootChild: vrc });
    const kids = visibleChildren.get(id) ?? [];
    const many = kids.length > 1;
    const childIndent = many || (justBranched && indent > 0) ? indent + 1 : indent;
    const displayIndent = multipleRoots ? Math.max(0, indent - 1) : indent;
    const childGutters = showConnector && !vrc ? [...gutters, { position: Math.max(0, displayIndent - 1), show: !isLast }] : gutters;
    for (let i = kids.length - 1; i >= 0; i--) {
      stack.push([kids[i], childIndent, many, many, i === kids.length - 1, childGutters, false]);
    }
  }
  const rowOf = new Map<string, number>();
  rows.forEach((r, i) => rowOf.set(r.id, i));
  return { rows, rowOf, visibleParent, visibleChildren, multipleRoots, activeIds: new Set(activePath(index)) };
}

/** pi: foldable = has visible children and is a root or the first entry of a branch. */
export function isFoldable(view: TreeView, id: string): boolean {
  const kids = view.visibleChildren.get(id);
  if (!kids || kids.length === 0) return false;
  const p = view.visibleParent.get(id) ?? null;
  if (p === null) return true;
  return (view.visibleChildren.get(p)?.length ?? 0) > 1;
}

/** The gutter-and-connector prefix of a row: `│  ├⊟ `. */
export function rowPrefix(view: TreeView, row: TreeRow, folded: ReadonlySet<string>): string {
  const displayIndent = view.multipleRoots ? Math.max(0, row.indent - 1) : row.indent;
  const connector = row.showConnector && !row.virtualRootChild;
  const connectorAt = connector ? displayIndent - 1 : -1;
  let out = "";
  for (let level = 0; level < displayIndent; level++) {
    const g = row.gutters.find((x) => x.position === level);
    if (g) out += g.show ? "│  " : "   ";
    else if (level === connectorAt) {
      const mark = folded.has(row.id) ? "⊞" : isFoldable(view, row.id) ? "⊟" : "─";
      out += `${row.isLast ? "└" : "├"}${mark} `;
    } else out += "   ";
  }
  if (!connector && folded.has(row.id)) out += "⊞ ";
  return out;
}

/**
 * ←/→ without a fold to toggle: move to the start of the enclosing branch segment (up),
 * or down the chain to the first child of the next branch point. Returns a row index.
 */
export function segmentStart(view: TreeView, rowIndex: number, direction: "up" | "down"): number {
  const selected = view.rows[rowIndex]?.id;
  if (selected === undefined) return rowIndex;
  let cur = selected;
  if (direction === "down") {
    for (;;) {
      const kids = view.visibleChildren.get(cur) ?? [];
      if (kids.length === 0) return view.rowOf.get(cur)!;
      if (kids.length > 1) return view.rowOf.get(kids[0])!;
      cur = kids[0];
    }
  }
  for (;;) {
    const p = view.visibleParent.get(cur) ?? null;
    if (p === null) return view.rowOf.get(cur)!;
    if ((view.visibleChildren.get(p)?.length ?? 0) > 1) {
      const at = view.rowOf.get(cur)!;
      if (at < rowIndex) return at;
    }
    cur = p;
  }
}

/**
 * `[` / `]`: the previous or next sibling branch at the nearest branch point above the
 * selection; returns the row of that sibling's first entry (or the same row if none).
 */
export function siblingBranch(view: TreeView, rowIndex: number, direction: -1 | 1): number {
  let cur = view.rows[rowIndex]?.id;
  while (cur !== undefined) {
    const p = view.visibleParent.get(cur) ?? null;
    const sibs = view.visibleChildren.get(p) ?? [];
    if (sibs.length > 1) {
      const i = sibs.indexOf(cur) + direction;
      if (i >= 0 && i < sibs.length) return view.rowOf.get(sibs[i])!;
      return rowIndex;
    }
    if (p === null) return rowIndex;
    cur = p;
  }
  return rowIndex;
}

/** The nearest row at or above `id` that is visible (for keeping the cursor when rows hide). */
export function nearestVisibleRow(view: TreeView, index: SessionIndex, id: string): number {
  let cur: string | null = id;
  const seen = new Set<string>();
  while (cur !== null && !seen.has(cur)) {
    const at = view.rowOf.get(cur);
    if (at !== undefined) return at;
    seen.add(cur);
    cur = index.tree.parent.get(cur) ?? null;
  }
  return view.rows.length ? 0 : -1;
}

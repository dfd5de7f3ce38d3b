import type { SessionIndex } from "./index-types.js";
import { displayOrder } from "./tree-order.js";
import { activePath } from "./tree.js";
import type { EntryNode } from "./types.js";

export const TREE_FILTERS = ["default", "no-tools", "user-only", "labelled-only", "all"] as const;
export type TreeFilter = (typeof TREE_FILTERS)[number];

export function nextFilter(f: TreeFilter): TreeFilter {
  return TREE_FILTERS[(TREE_FILTERS.indexOf(f) + 1) % TREE_FILTERS.length];
}

export function prevFilter(f: TreeFilter): TreeFilter {
  return TREE_FILTERS[(TREE_FILTERS.indexOf(f) + TREE_FILTERS.length - 1) % TREE_FILTERS.length];
}

/**
 * One level's vertical line (`│`, or blank under a last child), as a link to the levels
 * above: every row of a branch shares its chain, so a branch point costs one link, not a
 * copy of every level above it (a comb of 30,000 branch points stays linear).
 */
export interface Gutter {
  position: number;
  show: boolean;
  prev: Gutter | null;
  /** The nearest link at or above this one that is drawn (position < MAX_INDENT). */
  drawn: Gutter | null;
}

/** Levels drawn at most; deeper rows show their depth as a number (`+12 `) instead. */
export const MAX_INDENT = 12;

function link(prev: Gutter | null, position: number, show: boolean): Gutter {
  const g: Gutter = { position, show, prev, drawn: null };
  g.drawn = position < MAX_INDENT ? g : (prev?.drawn ?? null);
  return g;
}

export interface TreeRow {
  id: string;
  indent: number;
  showConnector: boolean;
  isLast: boolean;
  /** The innermost level's line; shared along the branch: never mutate. */
  gutters: Gutter | null;
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

const BOOKKEEPING = new Set([
  "label",
  "context_edit",
  "custom",
  "model_change",
  "thinking_level_change",
  "session_info",
]);

/**
 * pi 1.5.2's /tree filters: `usage` entries are never shown; assistant turns that only call
 * tools (no text, not an error) are hidden in every filter, "all" included, unless they are
 * the leaf; bookkeeping entries (context edits among them) only show in "all".
 */
export function passesFilter(
  node: EntryNode,
  filter: TreeFilter,
  leafId: string | null,
  labels: ReadonlyMap<string, string>,
): boolean {
  if (node.type === "usage") return false;
  if (node.role === "assistant" && node.id !== leafId) {
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

/** The display order of an index with each entry's node and effective parent by position. */
interface OrderedIndex {
  ids: string[];
  nodes: EntryNode[];
  /** Position of the effective parent in `ids`, or -1 for roots. */
  parentPos: Int32Array;
  activeIds: Set<string>;
}

const orderCache = new WeakMap<SessionIndex, OrderedIndex>();
function orderOf(index: SessionIndex): OrderedIndex {
  let o = orderCache.get(index);
  if (!o) {
    const ids = displayOrder(index.tree, index.leafId);
    const pos = new Map<string, number>();
    ids.forEach((id, i) => pos.set(id, i));
    const parentPos = new Int32Array(ids.length);
    const nodes = new Array<EntryNode>(ids.length);
    for (let i = 0; i < ids.length; i++) {
      nodes[i] = index.byId.get(ids[i])!;
      const p = index.tree.parent.get(ids[i]) ?? null;
      parentPos[i] = p === null ? -1 : pos.get(p)!;
    }
    o = { ids, nodes, parentPos, activeIds: new Set(activePath(index)) };
    orderCache.set(index, o);
  }
  return o;
}

/**
 * The rows of a session's tree under a filter and folds: hidden entries' children attach
 * to their nearest visible ancestor; indentation grows only at branch points (and for
 * the first generation after one), as pi draws it. O(entries), no recursion; works on
 * positions in display order (parents come before children there).
 */
export function buildTreeView(index: SessionIndex, filter: TreeFilter, folded: ReadonlySet<string>): TreeView {
  const { ids, nodes, parentPos, activeIds } = orderOf(index);
  const n = ids.length;
  const hidden = new Uint8Array(n); // 1 = under a fold
  const visible = new Uint8Array(n);
  // Nearest visible ancestor (itself excluded) by position, -1 for none.
  const nearest = new Int32Array(n);
  const visibleParent = new Map<string, string | null>();
  const childPos = new Map<number, number[]>();
  const rootPos: number[] = [];
  const anyFolded = folded.size > 0;
  for (let i = 0; i < n; i++) {
    const p = parentPos[i];
    const underFold = p >= 0 && (hidden[p] === 1 || (anyFolded && folded.has(ids[p])));
    if (underFold) hidden[i] = 1;
    const anc = p < 0 ? -1 : visible[p] ? p : nearest[p];
    nearest[i] = anc;
    if (underFold || !passesFilter(nodes[i], filter, index.leafId, index.labels)) continue;
    visible[i] = 1;
    visibleParent.set(ids[i], anc < 0 ? null : ids[anc]);
    if (anc < 0) rootPos.push(i);
    else {
      const list = childPos.get(anc);
      if (list) list.push(i);
      else childPos.set(anc, [i]);
    }
  }
  const visibleChildren = new Map<string | null, string[]>([[null, rootPos.map((i) => ids[i])]]);
  for (const [p, list] of childPos)
    visibleChildren.set(
      ids[p],
      list.map((i) => ids[i]),
    );
  const multipleRoots = rootPos.length > 1;
  const rows: TreeRow[] = [];
  const rowOf = new Map<string, number>();
  type Frame = [
    pos: number,
    indent: number,
    justBranched: boolean,
    showConnector: boolean,
    isLast: boolean,
    gutters: Gutter | null,
    vrc: boolean,
  ];
  const stack: Frame[] = [];
  for (let i = rootPos.length - 1; i >= 0; i--) {
    stack.push([
      rootPos[i],
      multipleRoots ? 1 : 0,
      multipleRoots,
      multipleRoots,
      i === rootPos.length - 1,
      null,
      multipleRoots,
    ]);
  }
  while (stack.length) {
    const [at, indent, justBranched, showConnector, isLast, gutters, vrc] = stack.pop()!;
    rowOf.set(ids[at], rows.length);
    rows.push({ id: ids[at], indent, showConnector, isLast, gutters, virtualRootChild: vrc });
    const kids = childPos.get(at);
    if (!kids) continue;
    const many = kids.length > 1;
    const childIndent = many || (justBranched && indent > 0) ? indent + 1 : indent;
    const displayIndent = multipleRoots ? Math.max(0, indent - 1) : indent;
    const childGutters = showConnector && !vrc ? link(gutters, Math.max(0, displayIndent - 1), !isLast) : gutters;
    for (let i = kids.length - 1; i >= 0; i--) {
      stack.push([kids[i], childIndent, many, many, i === kids.length - 1, childGutters, false]);
    }
  }
  return { rows, rowOf, visibleParent, visibleChildren, multipleRoots, activeIds };
}

/** pi: foldable = has visible children and is a root or the first entry of a branch. */
export function isFoldable(view: TreeView, id: string): boolean {
  const kids = view.visibleChildren.get(id);
  if (!kids || kids.length === 0) return false;
  const p = view.visibleParent.get(id) ?? null;
  if (p === null) return true;
  return (view.visibleChildren.get(p)?.length ?? 0) > 1;
}

/** How deep a row is drawn: its levels (display indent). */
export function rowDepth(view: TreeView, row: TreeRow): number {
  return view.multipleRoots ? Math.max(0, row.indent - 1) : row.indent;
}

/**
 * The gutter-and-connector prefix of a row: `│  ├⊟ `. At most MAX_INDENT levels are drawn
 * (pi scrolls deeper rows sideways; here they stay in view): a deeper row starts with its
 * depth, `+40 `, and its connector, so the text and `← active` stay on screen.
 */
export function rowPrefix(view: TreeView, row: TreeRow, folded: ReadonlySet<string>): string {
  const depth = rowDepth(view, row);
  const connector = row.showConnector && !row.virtualRootChild;
  if (depth > MAX_INDENT) {
    const mark = connector
      ? `${row.isLast ? "└" : "├"}${folded.has(row.id) ? "⊞" : isFoldable(view, row.id) ? "⊟" : "─"} `
      : folded.has(row.id)
        ? "⊞ "
        : "";
    return `+${depth} ${mark}`;
  }
  const displayIndent = depth;
  const connectorAt = connector ? displayIndent - 1 : -1;
  // The drawn levels' lines, found by walking only the links that are drawn.
  const lines = new Map<number, boolean>();
  // Walked deepest first: the shallowest line at a level is the one drawn (as pi finds it).
  for (let g = row.gutters?.drawn ?? null; g; g = g.prev?.drawn ?? null) lines.set(g.position, g.show);
  let out = "";
  for (let level = 0; level < displayIndent; level++) {
    const show = lines.get(level);
    if (show !== undefined) out += show ? "│  " : "   ";
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

/** The id of the nearest entry at or above `id` that has a row; undefined when none has. */
export function nearestVisibleId(view: TreeView, index: SessionIndex, id: string | null): string | undefined {
  let cur = id;
  const seen = new Set<string>();
  while (cur !== null && !seen.has(cur)) {
    if (view.rowOf.has(cur)) return cur;
    seen.add(cur);
    cur = index.tree.parent.get(cur) ?? null;
  }
  return undefined;
}

/** The row of `id`, or of its nearest visible ancestor (for keeping the cursor when rows hide); 0 or -1 otherwise. */
export function nearestVisibleRow(view: TreeView, index: SessionIndex, id: string): number {
  const at = nearestVisibleId(view, index, id);
  if (at !== undefined) return view.rowOf.get(at)!;
  return view.rows.length ? 0 : -1;
}

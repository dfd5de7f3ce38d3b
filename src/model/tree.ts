/** Tree algorithms over a session's entries. All iterative: a 100,000-deep chain must not overflow. */

export interface TreeNodeLike {
  id: string;
  parentId: string | null;
  timestamp: string;
}

export interface TreeShape {
  roots: string[];
  children: Map<string, string[]>;
  /** Parent after orphans became roots and cycles were broken; null for roots. */
  parent: Map<string, string | null>;
  /** Ids whose parent link was cut to break a cycle. */
  cycleBreaks: string[];
}

/**
 * pi's getTree: an entry whose parent is null, itself or unknown is a root; children are
 * ordered by timestamp, oldest first. Unlike pi, entries caught in a parent cycle are not
 * lost: the cycle is cut at its earliest entry (file order), which becomes a root.
 */
export function buildTree(nodes: readonly TreeNodeLike[]): TreeShape {
  const order = new Map<string, number>();
  nodes.forEach((n, i) => order.set(n.id, i));
  const parent = new Map<string, string | null>();
  const children = new Map<string, string[]>();
  const roots: string[] = [];
  // pi appends children after their parents; only a parent found later in the file can
  // close a cycle, so the reachability pass runs only when that happens.
  let forwardLink = false;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    const p = n.parentId;
    const at = p === null ? undefined : order.get(p);
    if (p === null || p === n.id || at === undefined) {
      parent.set(n.id, null);
      roots.push(n.id);
    } else {
      if (at > i) forwardLink = true;
      parent.set(n.id, p);
      let list = children.get(p);
      if (!list) children.set(p, (list = []));
      list.push(n.id);
    }
  }
  const cycleBreaks = forwardLink ? breakCycles(nodes, order, parent, children, roots) : [];
  let time: Map<string, number> | undefined;
  for (const list of children.values()) {
    if (list.length < 2) continue;
    if (!time) {
      time = new Map();
      for (const n of nodes) time.set(n.id, new Date(n.timestamp).getTime());
    }
    const t = time;
    // As pi: a NaN comparison counts as equal, so the sort stays stable.
    list.sort((a, b) => {
      const d = t.get(a)! - t.get(b)!;
      return Number.isNaN(d) ? 0 : d;
    });
  }
  return { roots, children, parent, cycleBreaks };
}

/** Finds entries no root reaches (parent cycles) and cuts each cycle at its earliest entry. */
function breakCycles(
  nodes: readonly TreeNodeLike[],
  order: Map<string, number>,
  parent: Map<string, string | null>,
  children: Map<string, string[]>,
  roots: string[],
): string[] {
  const reached = new Set<string>();
  const mark = (from: string) => {
    const stack = [from];
    while (stack.length) {
      const id = stack.pop()!;
      if (reached.has(id)) continue;
      reached.add(id);
      const kids = children.get(id);
      if (kids) for (const k of kids) stack.push(k);
    }
  };
  for (const r of roots) mark(r);
  const cycleBreaks: string[] = [];
  if (reached.size === nodes.length) return cycleBreaks;
  for (const n of nodes) {
    if (reached.has(n.id)) continue;
    // Walk up until an id repeats: everything from the repeat on is the cycle.
    const walk: string[] = [];
    const onWalk = new Map<string, number>();
    let cur: string | null = n.id;
    while (cur !== null && !onWalk.has(cur) && !reached.has(cur)) {
      onWalk.set(cur, walk.length);
      walk.push(cur);
      cur = parent.get(cur) ?? null;
    }
    if (cur === null || reached.has(cur)) {
      mark(n.id);
      continue;
    }
    const cycle = walk.slice(onWalk.get(cur)!);
    let cut = cycle[0];
    for (const id of cycle) if (order.get(id)! < order.get(cut)!) cut = id;
    const siblings = children.get(parent.get(cut)!)!;
    siblings.splice(siblings.indexOf(cut), 1);
    parent.set(cut, null);
    roots.push(cut);
    cycleBreaks.push(cut);
    mark(cut);
  }
  return cycleBreaks;
}

/** Ids from the root down to `leafId`, following the (cycle-free) effective parents. */
export function pathToRoot(shape: Pick<TreeShape, "parent">, leafId: string | null): string[] {
  const path: string[] = [];
  let cur = leafId;
  const seen = new Set<string>();
  while (cur !== null && shape.parent.has(cur) && !seen.has(cur)) {
    seen.add(cur);
    path.push(cur);
    cur = shape.parent.get(cur) ?? null;
  }
  return path.reverse();
}

/** The active branch of an index: root → leaf. */
export function activePath(index: { tree: TreeShape; leafId: string | null }): string[] {
  return pathToRoot(index.tree, index.leafId);
}

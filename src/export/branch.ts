import type { SessionIndex } from "../store/session-index.js";
import { displayOrder } from "../model/tree-order.js";
import { activePath, pathToRoot } from "../model/tree.js";

/**
 * One branch of a session: the part of its root → leaf path no earlier branch had. Only
 * that part is kept (the whole path of every branch of a comb-shaped session is quadratic);
 * `branchPath` gives the whole path of one branch when it is wanted.
 */
export interface Branch {
  /** Its own entries, in order: from the first entry no earlier branch had to its leaf. */
  own: string[];
  leafId: string;
  /** How many entries lie above its own ones, shared with earlier branches (0 for the first branch). */
  ownFrom: number;
  /** The entry it branches off from (the parent of its first own entry); null for a root. */
  from: string | null;
  /** Holds pi's leaf: the branch pi continues. */
  active: boolean;
}

export class UnknownEntryError extends Error {
  constructor(readonly entryId: string) {
    super(`no entry ${entryId} in this session`);
    this.name = "UnknownEntryError";
  }
}

/**
 * The branch through `entryId`: the active branch when the entry lies on it (or when no
 * entry is given), else the entry's path continued down its newest children to a leaf —
 * the branch last worked on below it.
 */
export function branchThrough(index: SessionIndex, entryId?: string): string[] {
  if (entryId === undefined) return activePath(index);
  if (!index.byId.has(entryId)) throw new UnknownEntryError(entryId);
  const active = activePath(index);
  if (active.includes(entryId)) return active;
  let cur = entryId;
  for (let kids = index.tree.children.get(cur); kids && kids.length; kids = index.tree.children.get(cur)) {
    // Children are ordered oldest first.
    cur = kids[kids.length - 1];
  }
  return pathToRoot(index.tree, cur);
}

/**
 * Every branch, the active one first, then as pi's /tree lists them (depth-first, the
 * active child first at each branch point). Each entry is the own part of exactly one
 * branch, so writing the own parts writes the tree once.
 */
export function allBranches(index: SessionIndex): Branch[] {
  const activeIds = new Set(activePath(index));
  const out: Branch[] = [];
  // Depth of each entry; display order has parents before children. Linear in entries.
  const depth = new Map<string, number>();
  let own: string[] = [];
  for (const id of displayOrder(index.tree, index.leafId)) {
    const parent = index.tree.parent.get(id) ?? null;
    depth.set(id, parent === null ? 0 : (depth.get(parent) ?? -1) + 1);
    own.push(id);
    if (index.tree.children.get(id)?.length) continue;
    out.push({
      own,
      leafId: id,
      ownFrom: depth.get(own[0])!,
      from: index.tree.parent.get(own[0]) ?? null,
      active: activeIds.has(id),
    });
    own = [];
  }
  return out;
}

/** The whole root → leaf path of one branch. */
export function branchPath(index: SessionIndex, b: Branch): string[] {
  return pathToRoot(index.tree, b.leafId);
}

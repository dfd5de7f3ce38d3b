import type { SessionIndex } from "../model/session-index.js";
import { displayOrder } from "../model/tree-order.js";
import { activePath, pathToRoot } from "../model/tree.js";

/** One branch of a session: a path root → leaf, and the part of it no earlier branch had. */
export interface Branch {
  /** Root → leaf. */
  ids: string[];
  leafId: string;
  /** Where its own entries start in `ids` (0 for the first branch). */
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
  let own: string[] = [];
  for (const id of displayOrder(index.tree, index.leafId)) {
    own.push(id);
    if (index.tree.children.get(id)?.length) continue;
    const ids = pathToRoot(index.tree, id);
    out.push({ ids, leafId: id, ownFrom: ids.length - own.length, from: index.tree.parent.get(own[0]) ?? null, active: activeIds.has(id) });
    own = [];
  }
  return out;
}

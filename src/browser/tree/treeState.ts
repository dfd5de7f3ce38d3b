import type { SessionLoad } from "../core/sessionLoad.js";
import { toolCallMap } from "../../model/row-text.js";
import { sessionTitle } from "../../model/session-title.js";
import type { SessionIndex } from "../../store/session-index.js";
import type { EntryNode } from "../../model/types.js";
import { type AppliedEdit, buildContext } from "../../model/context.js";
import {
  buildTreeView,
  isFoldable,
  nearestVisibleRow,
  segmentStart,
  siblingBranch,
  type TreeFilter,
  type TreeView,
} from "../../model/tree-view.js";
import { EMPTY_INPUT, type TextInput } from "../core/textInput.js";

/*
 * The branch tree of one session as pure state. The view (rows) is derived from
 * (index, filter, folded) and rebuilt only when one of those changes, never on a
 * cursor move: buildTreeView is O(entries).
 */

/** An append that waits for the user's go-ahead (the file changed in the last seconds). */
export type PendingWrite =
  | { op: "label"; entryId: string; label: string }
  /**
   * Resume at `entryId` (null: before the first entry). `copyOf`: a user message was picked;
   * as pi's /tree, the position goes to its parent and its text goes to the clipboard.
   */
  | { op: "navigate"; entryId: string | null; copyOf?: EntryNode; then?: ResumeAt };

/** Where pi starts for a resume at an entry when the session's own folder is gone: where the browser was started (pi asks there). */
export interface ResumeAt {
  cwd: string;
}

export type TreeMode = "tree" | "treeSearch" | "treeLabel" | "treeConfirm";

export interface TreeInputField {
  kind: "search" | "label";
  text: TextInput;
  /** label: the entry being labelled. */
  entryId?: string;
}

export interface TreeState extends SessionLoad {
  calls: ReadonlyMap<string, string>;
  filter: TreeFilter;
  folded: ReadonlySet<string>;
  view: TreeView | null;
  cursor: number;
  /** The entry the cursor should land on once the (re)loaded index arrives. */
  anchorId: string | null;
  previewTop: number;
  input: TreeInputField | null;
  confirm: PendingWrite | null;
  /** The last submitted search and its matches (ids in file order). */
  query: string;
  matches: readonly string[];
  matchSet: ReadonlySet<string>;
  searching: boolean;
  searchSeq: number;
  /** A write or fork in flight: further writes wait. */
  busy: boolean;
  /** A user message's text is on the clipboard and the position moved: Enter resumes. */
  /** Context edits in effect at the leaf (target id → edit): rows and preview show the edited text. */
  edits: ReadonlyMap<string, AppliedEdit>;
  /** `e`: show entries as written instead of as the model sees them. */
  original: boolean;
  /** pi's Shift+T: each label shows when it was set. */
  labelTimes?: boolean;
  /** `negative`: nothing was done (no ✓), as "no matches". */
  message?: { text: string; error?: boolean; negative?: boolean };
  /** The file's mtime right after our own last write: not a sign that pi has it open. */
  ownMtime?: number;
}

const NO_MATCHES: ReadonlySet<string> = new Set();
const NONE: ReadonlySet<string> = new Set();
const NO_EDITS: ReadonlyMap<string, AppliedEdit> = new Map();

export function newTreeState(path: string, cwd: string, title: string): TreeState {
  return {
    path,
    cwd,
    title,
    status: "loading",
    loadSeq: 1,
    index: null,
    calls: new Map(),
    filter: "default",
    folded: NONE,
    view: null,
    cursor: 0,
    anchorId: null,
    previewTop: 0,
    input: null,
    confirm: null,
    query: "",
    matches: [],
    matchSet: NO_MATCHES,
    searching: false,
    searchSeq: 0,
    busy: false,
    edits: NO_EDITS,
    original: false,
  };
}

export function treeModeOf(t: TreeState): TreeMode {
  if (t.confirm) return "treeConfirm";
  if (t.input) return t.input.kind === "search" ? "treeSearch" : "treeLabel";
  return "tree";
}

export function currentId(t: TreeState): string | undefined {
  return t.view?.rows[t.cursor]?.id;
}

/** A (re)loaded index: folds that still exist are kept, the cursor stays on its entry. */
export function withIndex(t: TreeState, index: SessionIndex): TreeState {
  const anchor = currentId(t) ?? t.anchorId ?? index.leafId;
  const folded = t.folded.size ? new Set([...t.folded].filter((id) => index.byId.has(id))) : t.folded;
  const view = buildTreeView(index, t.filter, folded);
  const cursor = anchor ? Math.max(0, nearestVisibleRow(view, index, anchor)) : 0;
  const calls = t.index && t.index.nodes === index.nodes ? t.calls : toolCallMap(index);
  // The one title rule; the list's title (already made by it) stands in for the first message.
  const title = sessionTitle({ name: index.name, firstMessage: t.title });
  const cwd = typeof index.header.cwd === "string" && index.header.cwd ? index.header.cwd : t.cwd;
  // The conversation pi would open: edits on the active branch (pi applies them on resume).
  const edits = t.index === index ? t.edits : buildContext(index).edits;
  return {
    ...t,
    status: "ready",
    error: undefined,
    index,
    calls,
    folded,
    view,
    cursor,
    anchorId: null,
    title,
    cwd,
    edits,
  };
}

export function moveTo(t: TreeState, row: number): TreeState {
  const total = t.view?.rows.length ?? 0;
  if (total === 0) return t;
  const cursor = Math.max(0, Math.min(total - 1, row));
  return cursor === t.cursor ? t : { ...t, cursor, previewTop: 0 };
}

function rebuild(t: TreeState, filter: TreeFilter, folded: ReadonlySet<string>, keepId: string | undefined): TreeState {
  if (!t.index) return { ...t, filter, folded };
  const view = buildTreeView(t.index, filter, folded);
  const at = keepId === undefined ? 0 : nearestVisibleRow(view, t.index, keepId);
  const cursor = Math.max(0, at);
  return {
    ...t,
    filter,
    folded,
    view,
    cursor,
    previewTop: cursor === t.cursor && keepId === currentId(t) ? t.previewTop : 0,
  };
}

export function setFilter(t: TreeState, filter: TreeFilter): TreeState {
  return rebuild(t, filter, t.folded, currentId(t));
}

export function setFolded(t: TreeState, id: string, fold: boolean): TreeState {
  if (t.folded.has(id) === fold) return t;
  const folded = new Set(t.folded);
  if (fold) folded.add(id);
  else folded.delete(id);
  return rebuild(t, t.filter, folded, currentId(t));
}

/**
 * ←: fold an open branch point; else go to the start of the enclosing branch segment.
 * Returns "back" when there is nothing left to do (a root of a single-root tree, or a row
 * with no segment start above it): the caller leaves the tree.
 */
export function treeLeft(t: TreeState): TreeState | "back" {
  const view = t.view;
  const id = currentId(t);
  if (!view || id === undefined) return "back";
  const isRoot = (view.visibleParent.get(id) ?? null) === null;
  if (!(isRoot && !view.multipleRoots) && !t.folded.has(id) && isFoldable(view, id)) return setFolded(t, id, true);
  const to = segmentStart(view, t.cursor, "up");
  if (to === t.cursor) return "back";
  return moveTo(t, to);
}

/** →: unfold a folded row; else go down to the next branch point's first child (or the end). */
export function treeRight(t: TreeState): TreeState {
  const view = t.view;
  const id = currentId(t);
  if (!view || id === undefined) return t;
  if (t.folded.has(id)) return setFolded(t, id, false);
  return moveTo(t, segmentStart(view, t.cursor, "down"));
}

export function treeSibling(t: TreeState, dir: -1 | 1): TreeState {
  if (!t.view) return t;
  return moveTo(t, siblingBranch(t.view, t.cursor, dir));
}

/** n / N: the next visible match after (before) the cursor, in row order, wrapping around. */
export function nextMatchRow(t: TreeState, dir: 1 | -1): number | null {
  const view = t.view;
  if (!view || t.matches.length === 0) return null;
  let best: number | null = null;
  let wrap: number | null = null;
  for (const id of t.matches) {
    const r = view.rowOf.get(id);
    if (r === undefined) continue;
    if (dir === 1) {
      if (r > t.cursor && (best === null || r < best)) best = r;
      if (wrap === null || r < wrap) wrap = r;
    } else {
      if (r < t.cursor && (best === null || r > best)) best = r;
      if (wrap === null || r > wrap) wrap = r;
    }
  }
  return best ?? wrap;
}

/** Matches visible under the current filter and folds, and the cursor's place among them. */
export function matchPosition(t: TreeState): { visible: number; at: number } {
  const view = t.view;
  if (!view) return { visible: 0, at: 0 };
  let visible = 0;
  let at = 0;
  const here = currentId(t);
  const rows: number[] = [];
  for (const id of t.matches) {
    const r = view.rowOf.get(id);
    if (r === undefined) continue;
    visible++;
    rows.push(r);
  }
  if (here !== undefined && t.matchSet.has(here)) {
    rows.sort((a, b) => a - b);
    at = rows.indexOf(t.cursor) + 1;
  }
  return { visible, at };
}

export function withMatches(t: TreeState, ids: readonly string[]): TreeState {
  return { ...t, matches: ids, matchSet: ids.length ? new Set(ids) : NO_MATCHES, searching: false };
}

export function clearSearch(t: TreeState): TreeState {
  return { ...t, query: "", matches: [], matchSet: NO_MATCHES, searching: false, searchSeq: t.searchSeq + 1 };
}

export function openInput(t: TreeState, kind: "search" | "label", value: string, entryId?: string): TreeState {
  const cps = Array.from(value).length;
  return { ...t, input: { kind, text: value ? { value, cursor: cps } : EMPTY_INPUT, entryId }, message: undefined };
}

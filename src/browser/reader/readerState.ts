import type { SessionLoad } from "../core/sessionLoad.js";
import { type AppliedEdit, buildContext } from "../../model/context.js";
import type { SessionIndex } from "../../store/session-index.js";
import { branchThrough } from "../../export/branch.js";
import type { Block, BlockList } from "../../transcript/blocks.js";
import { nextToolMode, type ToolMode } from "../../transcript/layout.js";
import { lazyBlocks } from "../../transcript/lazy.js";
import { matchFrom, matchPosition, searchTranscript, type TranscriptMatch } from "../../transcript/search.js";
import { comparePositions, type Position, Transcript } from "../../transcript/transcript.js";
import type { TextInput } from "../core/textInput.js";

/*
 * The transcript reader as pure state: one branch of a session, laid out lazily by a
 * Transcript (src/transcript), a cursor line and the window's top line. The Transcript
 * object is never mutated here: a tool toggle, the thinking toggle or a new width make a
 * new one over the same block list, so blocks already read are not read again.
 */

export interface ReaderState extends SessionLoad {
  /** The shown branch, root → leaf. */
  ids: readonly string[];
  /** Where to put the cursor once the branch is laid out (an entry from the tree); the end otherwise. */
  focusId?: string;
  /** The branch's blocks as written, and as the model sees them (context edits applied). */
  written: BlockList | null;
  edited: BlockList | null;
  edits: ReadonlyMap<string, AppliedEdit>;
  /** `o`: show the entries as written. */
  original: boolean;
  thinking: boolean;
  /** `a`: how every tool shows; `t` overrides one block. */
  tools: ToolMode;
  toolModes: ReadonlyMap<number, ToolMode>;
  /** The transcript's width and the window's height, in cells (0 until the screen says). */
  width: number;
  height: number;
  transcript: Transcript | null;
  top: Position;
  cursor: Position;
  /** The `/` field while it is open. */
  input: TextInput | null;
  query: string;
  matches: readonly TranscriptMatch[];
  /** The current match, -1 for none. */
  match: number;
}

const ORIGIN: Position = { block: 0, line: 0 };
const NO_EDITS: ReadonlyMap<string, AppliedEdit> = new Map();

export function newReaderState(path: string, cwd: string, title: string, focusId?: string): ReaderState {
  return {
    path,
    cwd,
    title,
    status: "loading",
    loadSeq: 1,
    index: null,
    ids: [],
    focusId,
    written: null,
    edited: null,
    edits: NO_EDITS,
    original: false,
    thinking: false,
    tools: "collapsed",
    toolModes: new Map(),
    width: 0,
    height: 0,
    transcript: null,
    top: ORIGIN,
    cursor: ORIGIN,
    input: null,
    query: "",
    matches: [],
    match: -1,
  };
}

// ---- context edits ----

/** A block as the model sees it after `edit`: omitted, or its content replaced by the edit's text. */
export function applyEdit(b: Block, edit: AppliedEdit): Block {
  if (edit.kind === "omit") return { ...b, edit: "omit" };
  const text = edit.text ?? "";
  switch (b.kind) {
    case "user":
      return { ...b, text, images: 0, edit: "replace" };
    case "assistant":
      return { ...b, parts: text ? [{ type: "text", text }] : [], edit: "replace" };
    case "tool":
      return { ...b, output: text, load: undefined, bytes: undefined, images: 0, edit: "replace" };
    case "compaction":
    case "branch_summary":
      return { ...b, summary: text, edit: "replace" };
    case "custom":
      return { ...b, text, edit: "replace" };
  }
}

/** The entry an edit of block `b` targets: a tool's result, else the block's own entry. */
function editTarget(b: Block): string {
  return b.kind === "tool" ? (b.resultEntryId ?? "") : b.entryId;
}

/** `list` with the edits applied as blocks are read (kinds and entry ids are unchanged). */
export function editedBlocks(list: BlockList, edits: ReadonlyMap<string, AppliedEdit>): BlockList {
  if (edits.size === 0) return list;
  return {
    length: list.length,
    kind: (i) => list.kind(i),
    entryId: (i) => list.entryId(i),
    get(i) {
      const b = list.get(i);
      const e = b && edits.get(editTarget(b));
      return b && e ? applyEdit(b, e) : b;
    },
  };
}

// ---- the branch and its layout ----

/** The block an entry shows in: the last block that starts at or before it on the branch. */
export function blockOfEntry(list: BlockList, ids: readonly string[], entryId: string): number {
  const pos = new Map<string, number>();
  ids.forEach((id, i) => pos.set(id, i));
  const want = pos.get(entryId);
  if (want === undefined || list.length === 0) return -1;
  // Blocks are in branch order: binary search on where each starts.
  let lo = 0;
  let hi = list.length - 1;
  let best = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((pos.get(list.entryId(mid)) ?? -1) <= want) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/** Shows branch `ids` of the loaded session: lazily read blocks, edits as the model sees them at its leaf. */
export function withBranch(r: ReaderState, index: SessionIndex, ids: readonly string[], focusId?: string): ReaderState {
  const written = lazyBlocks(index, ids);
  const leaf = ids.length ? ids[ids.length - 1] : null;
  const edits = buildContext(index, leaf).edits;
  const next: ReaderState = {
    ...r,
    status: "ready",
    error: undefined,
    index,
    ids,
    focusId,
    written,
    edited: editedBlocks(written, edits),
    edits,
    toolModes: new Map(),
    transcript: null,
    query: "",
    matches: [],
    match: -1,
  };
  return layout(next, "focus");
}

/** The loaded index: the branch through the entry the reader was opened at (the active branch otherwise). */
export function withIndex(r: ReaderState, index: SessionIndex): ReaderState {
  let ids: string[];
  try {
    ids = branchThrough(index, r.focusId);
  } catch {
    ids = branchThrough(index);
  }
  return withBranch(r, index, ids, r.focusId);
}

/** The cursor and window kept as they are (a toggle), or placed (a new branch: at the focus entry, else the end). */
function layout(r: ReaderState, place: "keep" | "focus"): ReaderState {
  const list = r.original ? r.written : r.edited;
  if (!list || r.width <= 0 || r.height <= 0) return { ...r, transcript: null };
  const t = new Transcript(list, { width: r.width, thinking: r.thinking, tools: r.tools, toolModes: r.toolModes });
  let next: ReaderState = { ...r, transcript: t };
  if (place === "focus") {
    const b = r.focusId !== undefined ? blockOfEntry(list, r.ids, r.focusId) : -1;
    if (b >= 0) {
      const at = t.move({ block: b, line: 0 }, 0);
      next = { ...next, cursor: at, top: at };
    } else next = { ...next, cursor: t.end, top: t.tail(r.height) };
  } else {
    next = { ...next, cursor: t.move(r.cursor, 0), top: t.move(r.top, 0) };
  }
  if (r.query) next = { ...next, ...searchState(t, r.query, next.top) };
  return visible(next);
}

/** Width or height changed (the screen was resized). */
export function resize(r: ReaderState, width: number, height: number): ReaderState {
  if (width === r.width && height === r.height && r.transcript) return r;
  const first = !r.transcript;
  // A new width moves the lines inside a block: keep the cursor's block, at its start.
  const kept =
    width === r.width ? r : { ...r, cursor: { block: r.cursor.block, line: 0 }, top: { block: r.top.block, line: 0 } };
  return layout({ ...kept, width, height }, first ? "focus" : "keep");
}

export const relayout = (r: ReaderState) => layout(r, "keep");

// ---- moving ----

/** The last line the window shows. */
function bottomOf(t: Transcript, top: Position, height: number): Position {
  return t.move(top, Math.max(1, height) - 1);
}

/** The window never starts past the last full screen, and always holds the cursor. */
function visible(r: ReaderState): ReaderState {
  const t = r.transcript;
  if (!t) return r;
  let top = r.top;
  const tail = t.tail(r.height);
  if (comparePositions(top, tail) > 0) top = tail;
  if (comparePositions(r.cursor, top) < 0) top = r.cursor;
  else if (comparePositions(r.cursor, bottomOf(t, top, r.height)) > 0) top = t.move(r.cursor, -(r.height - 1));
  return same(top, r.top) ? r : { ...r, top };
}

const same = (a: Position, b: Position) => a.block === b.block && a.line === b.line;

/** The cursor moved by `delta` lines (the window follows). */
export function moveCursor(r: ReaderState, delta: number): ReaderState {
  const t = r.transcript;
  if (!t) return r;
  return visible({ ...r, cursor: t.move(r.cursor, delta) });
}

/** The window and the cursor moved together by `delta` lines (Ctrl+D/U, pages). */
export function scroll(r: ReaderState, delta: number): ReaderState {
  const t = r.transcript;
  if (!t) return r;
  const top = t.move(r.top, delta);
  const cursor = t.move(r.cursor, delta);
  return visible({ ...r, top, cursor });
}

/** The window alone moved (the mouse wheel); the cursor stays on screen. */
export function scrollWindow(r: ReaderState, delta: number): ReaderState {
  const t = r.transcript;
  if (!t) return r;
  const tail = t.tail(r.height);
  let top = t.move(r.top, delta);
  if (comparePositions(top, tail) > 0) top = tail;
  let cursor = r.cursor;
  const bottom = bottomOf(t, top, r.height);
  if (comparePositions(cursor, top) < 0) cursor = top;
  else if (comparePositions(cursor, bottom) > 0) cursor = bottom;
  return { ...r, top, cursor };
}

/** The cursor on the `row`-th line of the window (a click). */
export function cursorToRow(r: ReaderState, row: number): ReaderState {
  const t = r.transcript;
  if (!t || row < 0 || row >= r.height) return r;
  const at = t.move(r.top, row);
  return comparePositions(at, bottomOf(t, r.top, r.height)) > 0 ? r : { ...r, cursor: at };
}

export function toStart(r: ReaderState): ReaderState {
  const t = r.transcript;
  return t ? visible({ ...r, cursor: t.start, top: t.start }) : r;
}

export function toEnd(r: ReaderState): ReaderState {
  const t = r.transcript;
  return t ? visible({ ...r, cursor: t.end, top: t.tail(r.height) }) : r;
}

/** `{` / `}`: the cursor to the previous / next message's first line, shown at the top of the window. */
export function jumpMessage(r: ReaderState, dir: -1 | 1): ReaderState {
  const t = r.transcript;
  if (!t) return r;
  const cursor = t.jumpMessage(r.cursor, dir);
  return same(cursor, r.cursor) ? r : visible({ ...r, cursor, top: cursor });
}

// ---- toggles ----

/** The tool block `t` acts on: the one under the cursor, else the first tool on screen below it. */
export function toolBlockAt(r: ReaderState): number {
  const t = r.transcript;
  if (!t || t.blockCount === 0) return -1;
  if (t.blocks.kind(r.cursor.block) === "tool") return r.cursor.block;
  const rest = t.window(r.cursor, Math.max(1, r.height));
  for (const l of rest) if (t.blocks.kind(l.block) === "tool") return l.block;
  return -1;
}

export function cycleTool(r: ReaderState, block: number): ReaderState {
  const t = r.transcript;
  if (!t || block < 0) return r;
  const modes = new Map(r.toolModes);
  modes.set(block, nextToolMode(t.toolMode(block)));
  // The cursor stays at the tool's title when it was inside the block.
  const cursor = r.cursor.block === block ? { block, line: 0 } : r.cursor;
  return relayout({ ...r, toolModes: modes, cursor });
}

export function cycleAllTools(r: ReaderState): ReaderState {
  const next = nextToolMode(r.tools);
  const t = r.transcript;
  const cursor =
    t && t.blockCount > 0 && t.blocks.kind(r.cursor.block) === "tool" ? { block: r.cursor.block, line: 0 } : r.cursor;
  return relayout({ ...r, tools: next, toolModes: new Map(), cursor });
}

export function toggleThinking(r: ReaderState): ReaderState {
  return relayout({ ...r, thinking: !r.thinking, cursor: { block: r.cursor.block, line: 0 } });
}

export function toggleOriginal(r: ReaderState): ReaderState {
  return relayout({ ...r, original: !r.original, cursor: { block: r.cursor.block, line: 0 } });
}

// ---- search ----

function searchState(t: Transcript, query: string, from: Position): Pick<ReaderState, "query" | "matches" | "match"> {
  const matches = searchTranscript(t, query);
  return { query, matches, match: matchFrom(matches, from) };
}

/** Runs `/`: every match, the cursor on the first one from the window's top on. */
export function search(r: ReaderState, query: string): ReaderState {
  const t = r.transcript;
  if (!t || !query) return { ...r, query: "", matches: [], match: -1 };
  const next = { ...r, ...searchState(t, query, r.top) };
  return next.match < 0 ? next : showMatch(next, next.match);
}

export function showMatch(r: ReaderState, i: number): ReaderState {
  const m = r.matches[i];
  if (!m) return r;
  return visible({ ...r, match: i, cursor: matchPosition(m) });
}

/** n / N, wrapping around. */
export function nextMatch(r: ReaderState, dir: 1 | -1): ReaderState {
  const n = r.matches.length;
  if (n === 0) return r;
  return showMatch(r, r.match < 0 ? 0 : (r.match + dir + n) % n);
}

export function clearSearch(r: ReaderState): ReaderState {
  return { ...r, query: "", matches: [], match: -1 };
}

// ---- branches ----

/** The entry at the cursor (the first entry of its block). */
export function cursorEntry(r: ReaderState): string | undefined {
  const t = r.transcript;
  if (!t || t.blockCount === 0) return undefined;
  return t.blocks.entryId(r.cursor.block);
}

/**
 * `[` / `]`: the sibling branch at the branch point nearest the cursor (above it first,
 * else below), as pi's /tree orders children (oldest first), wrapping around. Returns the
 * sibling's first entry and the branch through it, or null when the branch has no fork.
 */
export function siblingBranch(
  index: SessionIndex,
  ids: readonly string[],
  fromId: string | undefined,
  dir: -1 | 1,
): { ids: string[]; focusId: string } | null {
  const at = fromId === undefined ? ids.length - 1 : Math.max(0, ids.indexOf(fromId));
  const kidsOf = (k: number) => (k === 0 ? index.tree.roots : (index.tree.children.get(ids[k - 1]) ?? []));
  const order: number[] = [];
  for (let k = at; k >= 0; k--) order.push(k);
  for (let k = at + 1; k < ids.length; k++) order.push(k);
  for (const k of order) {
    const kids = kidsOf(k);
    if (kids.length < 2) continue;
    const here = kids.indexOf(ids[k]);
    const sib = kids[(here + dir + kids.length) % kids.length];
    return { ids: branchThrough(index, sib), focusId: sib };
  }
  return null;
}

const leafMemo = new WeakMap<SessionIndex, string[]>();

/** The entries nothing continues from, in file order: the session's branches (pi's leaves). */
function leavesOf(index: SessionIndex): string[] {
  let leaves = leafMemo.get(index);
  if (!leaves) {
    leaves = index.nodes.filter((n) => !(index.tree.children.get(n.id)?.length ?? 0)).map((n) => n.id);
    leafMemo.set(index, leaves);
  }
  return leaves;
}

/** "branch 2 of 3": which of the session's branches is read; "" for a session without forks. */
export function branchInfo(r: ReaderState): string {
  const index = r.index;
  if (!index) return "";
  const leaves = leavesOf(index);
  if (leaves.length < 2) return "";
  // Which of the session's branches this is (its leaf among all leaves, in file order):
  // the same wherever the cursor is, and "of N" is the preview's "branches N".
  const at = leaves.indexOf(r.ids.at(-1) ?? "");
  return at < 0 ? `${leaves.length} branches` : `branch ${at + 1} of ${leaves.length}`;
}

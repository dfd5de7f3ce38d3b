import { isCurrentLoad } from "../core/sessionLoad.js";
import { basename } from "node:path";
import type { SessionIndex } from "../../store/session-index.js";
import { nextFilter, prevFilter, type TreeFilter } from "../../model/tree-view.js";
import { sessionTitle } from "../../model/session-title.js";
import type { SessionSummary } from "../../model/types.js";
import { sanitizeLine } from "../../text/sanitize.js";
import type { CommandId, Mode } from "../keys/commands.js";
import { type Layered, push } from "../core/layers.js";
import { type ListState, refresh } from "../list/list.js";
import { type Next, withEffect } from "../core/next.js";
import { INTERRUPT, type LeaveEffect } from "../core/outcome.js";
import { say, type WithStatus } from "../core/status.js";
import type { TreeEffect } from "./treeEffects.js";
import type { FileIdentity } from "../../store/file-identity.js";
import { mergeBatch } from "../list/sessions.js";
import { deleteTarget, recordOwnWrite } from "../lifecycle/lifecycle.js";
import type { FileStamp, LifecycleState } from "../lifecycle/lifecycleTypes.js";
import * as text from "../core/textInput.js";
import {
  clearSearch,
  currentId,
  moveTo,
  newTreeState,
  nextMatchRow,
  openInput,
  type PendingWrite,
  type ResumeAt,
  setFilter,
  treeLeft,
  treeRight,
  treeSibling,
  type TreeState,
  withIndex,
  withMatches,
} from "./treeState.js";

/*
 * The branch tree inside the app's reducer: commands in the tree modes, and the
 * results of its effects. The tree's state lives in AppState.tree while the
 * { kind: "tree" } layer is on the stack.
 */

export type TreeAction =
  | { type: "tree.loaded"; path: string; seq: number; index: SessionIndex }
  | { type: "tree.loadFailed"; path: string; seq: number; error: string }
  | { type: "tree.searched"; path: string; seq: number; ids: string[] }
  | { type: "tree.searchFailed"; path: string; seq: number; error: string }
  /** The file changed in the last seconds: ask before writing. */
  | { type: "tree.confirmWrite"; path: string; write: PendingWrite }
  | {
      type: "tree.written";
      path: string;
      write: PendingWrite;
      wrote: boolean;
      mtimeMs?: number;
      copied?: boolean;
      stamp?: FileStamp;
    }
  | { type: "tree.writeFailed"; path: string; error: string }
  | { type: "tree.forked"; source: string; path: string; summary?: SessionSummary }
  | { type: "tree.forkFailed"; path: string; error: string }
  /** The file is not the one the tree shows (replaced, rewritten, gone): nothing was written; read it again. */
  | { type: "tree.stale"; path: string; error: string }
  /** The preview knows how far it can scroll. */
  | { type: "tree.previewMax"; max: number };

export function isTreeAction(a: { type: string }): a is TreeAction {
  return a.type.startsWith("tree.");
}

export function isTreeMode(m: Mode): boolean {
  return m === "tree" || m === "treeSearch" || m === "treeLabel" || m === "treeConfirm";
}

export const TREE_LAYER = { kind: "tree" } as const;

/** What the tree reads and writes beyond its own state: the list (to open from and fork into), the layers, the status and our own writes. */
export interface TreeHost extends ListState, Layered, WithStatus, Pick<LifecycleState, "ownWrites" | "undo"> {
  tree: TreeState | null;
  print: boolean;
  helpTop: number;
}

type TreeNext<S> = Next<S, TreeEffect | LeaveEffect>;

const PREVIEW_STEP = 3;

function setTree<S extends TreeHost>(s: S, t: TreeState): S {
  return t === s.tree ? s : { ...s, tree: t };
}

function note(t: TreeState, text: string, error = false): TreeState {
  return { ...t, message: { text, error } };
}

/** A negative result: said without a mark of success. */
function nothing(t: TreeState, text: string): TreeState {
  return { ...t, message: { text, negative: true } };
}

/** Opens the selected session's tree and starts loading it. */
export function openTree<S extends TreeHost>(s: S): TreeNext<S> {
  const sel = s.rows[s.cursor]?.session;
  if (!sel) return s;
  const t = newTreeState(sel.path, sel.cwd, sessionTitle(sel));
  return withEffect({ ...push(s, TREE_LAYER), tree: t }, { type: "tree.load", path: t.path, seq: t.loadSeq });
}

/** Back to the list, with the same session selected. */
export function closeTree<S extends TreeHost>(s: S): S {
  const stack = s.stack.filter((l) => l.kind !== "tree");
  return { ...s, tree: null, stack };
}

function reload<S extends TreeHost>(s: S, t: TreeState): TreeNext<S> {
  const next = { ...t, loadSeq: t.loadSeq + 1, anchorId: currentId(t) ?? t.anchorId };
  return withEffect(setTree(s, next), { type: "tree.load", path: t.path, seq: next.loadSeq });
}

function requestWrite<S extends TreeHost>(s: S, t: TreeState, write: PendingWrite, force: boolean): TreeNext<S> {
  if (t.busy) return setTree(s, note(t, "busy: the last write has not finished", true));
  // A resume-at-entry leaves for pi: the runner checks first that pi can start there (not when picking: the caller starts it).
  const cwd = write.op === "navigate" && !s.print ? { cwd: t.cwd, launchCwd: s.launchCwd } : {};
  return withEffect(setTree(s, { ...t, busy: true, confirm: null }), {
    type: "tree.write",
    path: t.path,
    write,
    force,
    ownMtime: s.ownWrites.get(t.path)?.mtimeMs ?? t.ownMtime,
    read: readAs(t),
    ...cwd,
  });
}

/** The file as the tree read it (its index); our own writes since are its new size and mtime. */
function readAs(t: TreeState): FileIdentity | undefined {
  return t.index ? { ino: t.index.ino, bytes: t.index.bytes, mtimeMs: t.index.mtimeMs } : undefined;
}

/** The tree's search or label field set to `next`. */
export function treeInput<S extends TreeHost>(s: S, next: text.TextInput): S {
  const t = s.tree;
  return t?.input && next !== t.input.text ? setTree(s, { ...t, input: { ...t.input, text: next } }) : s;
}

/** pi's direct filter keys (Ctrl+T, Ctrl+U, Ctrl+L, Ctrl+A) and the filter each turns on. */
const DIRECT_FILTER: Record<
  "tree.filterNoTools" | "tree.filterUserOnly" | "tree.filterLabelled" | "tree.filterAll",
  TreeFilter
> = {
  "tree.filterNoTools": "no-tools",
  "tree.filterUserOnly": "user-only",
  "tree.filterLabelled": "labelled-only",
  "tree.filterAll": "all",
};

/** Ctrl+C: the program ends as a shell's interrupt does (130), on every screen alike. */
const interrupt = <S extends TreeHost>(s: S): TreeNext<S> => withEffect(s, INTERRUPT);

/** A command while the tree is on top (or tree.open from the list). */
export function runTreeCommand<S extends TreeHost>(s: S, c: CommandId): TreeNext<S> {
  if (c === "tree.open") return openTree(s);
  if (!s.tree) return s;
  // A message lasts until the next key (unless a write is still running).
  if (s.tree.message && !s.tree.busy) s = { ...s, tree: { ...s.tree, message: undefined } };
  const t = s.tree!;
  const page = Math.max(1, s.pageSize - 1);
  switch (c) {
    case "tree.up":
      return setTree(s, moveTo(t, t.cursor - 1));
    case "tree.down":
      return setTree(s, moveTo(t, t.cursor + 1));
    case "tree.pageUp":
      return setTree(s, moveTo(t, t.cursor - page));
    case "tree.pageDown":
      return setTree(s, moveTo(t, t.cursor + page));
    case "tree.halfUp":
      return setTree(s, moveTo(t, t.cursor - Math.max(1, Math.floor(s.pageSize / 2))));
    case "tree.halfDown":
      return setTree(s, moveTo(t, t.cursor + Math.max(1, Math.floor(s.pageSize / 2))));
    case "tree.top":
      return setTree(s, moveTo(t, 0));
    case "tree.bottom":
      return setTree(s, moveTo(t, Number.MAX_SAFE_INTEGER));
    case "tree.left": {
      const next = treeLeft(t);
      return next === "back" ? closeTree(s) : setTree(s, next);
    }
    case "tree.right":
    case "tree.unfoldOrDown":
      return setTree(s, treeRight(t));
    case "tree.foldOrUp": {
      // pi's Ctrl+← / Alt+←: fold, else up to the segment start; it never leaves the tree.
      const next = treeLeft(t);
      return next === "back" ? s : setTree(s, next);
    }
    case "tree.prevBranch":
      return setTree(s, treeSibling(t, -1));
    case "tree.nextBranch":
      return setTree(s, treeSibling(t, 1));
    case "tree.filter":
      return setTree(s, setFilter(t, nextFilter(t.filter)));
    case "tree.filterBack":
      return setTree(s, setFilter(t, prevFilter(t.filter)));
    case "tree.filterDefault":
      return setTree(s, setFilter(t, "default"));
    case "tree.filterNoTools":
    case "tree.filterUserOnly":
    case "tree.filterLabelled":
    case "tree.filterAll": {
      // pi's filter keys: each turns its filter on, or back to the default when it is on.
      const f = DIRECT_FILTER[c];
      return setTree(s, setFilter(t, t.filter === f ? "default" : f));
    }
    case "tree.labelTimes": {
      const labelTimes = !t.labelTimes;
      return setTree(s, note({ ...t, labelTimes }, labelTimes ? "label times shown" : "label times hidden"));
    }
    case "tree.search":
      return setTree(s, openInput(t, "search", t.query));
    case "tree.nextMatch":
    case "tree.prevMatch": {
      if (t.matches.length === 0)
        return setTree(s, nothing(t, t.query ? "no matches" : "no search: press / to search"));
      const row = nextMatchRow(t, c === "tree.nextMatch" ? 1 : -1);
      if (row === null) return setTree(s, note(t, "no match is visible under this filter"));
      return setTree(s, moveTo(t, row));
    }
    case "tree.label": {
      const id = currentId(t);
      if (id === undefined || !t.index) return s;
      return setTree(s, openInput(t, "label", sanitizeLine(t.index.labels.get(id) ?? ""), id));
    }
    case "tree.resume": {
      const id = currentId(t);
      if (id === undefined) return s;
      const node = t.index?.byId.get(id);
      // pi's /tree on a user (or custom) message: the position goes to its parent and the
      // text to the editor, to edit and send again; pi's command line can't fill its editor,
      // so the text goes to the clipboard.
      if (node && t.index && (node.role === "user" || node.type === "custom_message")) {
        return requestWrite(
          s,
          t,
          { op: "navigate", entryId: t.index.tree.parent.get(id) ?? null, copyOf: node },
          false,
        );
      }
      return requestWrite(s, t, { op: "navigate", entryId: id }, false);
    }
    case "tree.fork": {
      const id = currentId(t);
      if (id === undefined) return s;
      if (t.busy) return setTree(s, note(t, "busy: the last write has not finished", true));
      return withEffect(setTree(s, { ...note(t, "forking…"), busy: true }), {
        type: "tree.fork",
        path: t.path,
        entryId: id,
        read: readAs(t),
      });
    }
    case "tree.original": {
      const original = !t.original;
      if (t.edits.size === 0) return setTree(s, note(t, "no context edit on this branch: entries are as written"));
      return setTree(
        s,
        note(
          { ...t, original },
          original
            ? "showing entries as written (O: as the model sees them)"
            : "showing entries as the model sees them, context edits applied (O: as written)",
        ),
      );
    }
    case "tree.previewUp":
      return setTree(s, t.previewTop === 0 ? t : { ...t, previewTop: Math.max(0, t.previewTop - PREVIEW_STEP) });
    case "tree.previewDown":
      return setTree(s, { ...t, previewTop: t.previewTop + PREVIEW_STEP });
    // Past the end is fine: the pane shows at most its last page and reports how far it goes (tree.previewMax).
    case "tree.previewPageUp":
      return setTree(s, t.previewTop === 0 ? t : { ...t, previewTop: Math.max(0, t.previewTop - page) });
    case "tree.previewPageDown":
      return setTree(s, { ...t, previewTop: t.previewTop + page });
    case "tree.previewTop":
      return setTree(s, t.previewTop === 0 ? t : { ...t, previewTop: 0 });
    case "tree.previewBottom":
      return setTree(s, { ...t, previewTop: Number.MAX_SAFE_INTEGER });
    case "tree.back":
      return t.query ? setTree(s, clearSearch(t)) : closeTree(s);
    case "tree.close":
      return closeTree(s);
    case "tree.inputSubmit": {
      const input = t.input;
      if (!input) return s;
      const value = input.text.value;
      const closed = { ...t, input: null };
      if (input.kind === "label")
        return requestWrite(s, closed, { op: "label", entryId: input.entryId!, label: value }, false);
      if (!value.trim() || !t.index) return setTree(s, clearSearch(closed));
      const next = { ...closed, query: value.trim(), searching: true, searchSeq: t.searchSeq + 1, message: undefined };
      return withEffect(setTree(s, next), {
        type: "tree.search",
        path: t.path,
        index: t.index,
        query: next.query,
        seq: next.searchSeq,
      });
    }
    case "tree.inputCancel":
      return setTree(s, { ...t, input: null });
    case "tree.confirmYes":
      return t.confirm ? requestWrite(s, { ...t, busy: false }, t.confirm, true) : s;
    case "tree.confirmNo":
      return setTree(s, { ...note(t, "nothing written"), confirm: null, busy: false });
    case "help.open":
      return { ...push(s, { kind: "help", first: "tree" }), helpTop: 0 };
    case "app.interrupt":
      if (t.confirm) return setTree(s, { ...note(t, "nothing written"), confirm: null, busy: false });
      if (t.input) return setTree(s, { ...t, input: null });
      return interrupt(s);
    default:
      return s;
  }
}

/** Results of the tree's effects. Stale ones (another session, an older request) are dropped. */
export function treeReducer<S extends TreeHost>(s: S, a: TreeAction): TreeNext<S> {
  if (a.type === "tree.forked") return forked(s, a);
  const t = s.tree;
  if (!t) return s;
  switch (a.type) {
    case "tree.loaded":
      if (!isCurrentLoad(t, a)) return s;
      return setTree(s, withIndex(t, a.index));
    case "tree.loadFailed":
      if (!isCurrentLoad(t, a)) return s;
      return setTree(
        s,
        t.index ? note(t, `reload failed: ${a.error}`, true) : { ...t, status: "error", error: a.error },
      );
    case "tree.searched": {
      if (a.path !== t.path || a.seq !== t.searchSeq) return s;
      let next = withMatches(t, a.ids);
      if (a.ids.length === 0) return setTree(s, nothing(next, "no entry matches"));
      const here = currentId(next);
      if (here === undefined || !next.matchSet.has(here)) {
        const row = nextMatchRow(next, 1);
        if (row !== null) next = moveTo(next, row);
        else next = note(next, "no match is visible under this filter");
      }
      return setTree(s, next);
    }
    case "tree.searchFailed":
      if (a.path !== t.path || a.seq !== t.searchSeq) return s;
      return setTree(s, note({ ...t, searching: false }, `search failed: ${a.error}`, true));
    case "tree.confirmWrite":
      if (a.path !== t.path) return s;
      return setTree(s, { ...t, confirm: a.write, busy: false, message: undefined });
    case "tree.written": {
      if (a.path !== t.path) return s;
      s = recordOwnWrite(s, a.path, a.stamp);
      const done = { ...t, busy: false, ownMtime: a.mtimeMs ?? t.ownMtime };
      if (a.write.op === "label") {
        const label = a.write.label.trim();
        return reload(s, note(done, label ? `labelled: ${sanitizeLine(label)}` : "label cleared"));
      }
      // Written as pi starts (the runner checked it can): leave for pi at once, one key as
      // "Enter resume here" says. A user message's text went to the clipboard; pi is told so.
      const copied = a.write.copyOf
        ? a.copied
          ? "the message text is on the clipboard (OSC 52): paste it into pi's editor to edit and resend"
          : "the message is empty: nothing was copied"
        : undefined;
      return withEffect(
        setTree(s, done),
        resumeOut(s, done, copied, a.write.op === "navigate" ? a.write.then : undefined),
      );
    }
    case "tree.writeFailed":
      if (a.path !== t.path) return s;
      return setTree(s, note({ ...t, busy: false }, a.error, true));
    case "tree.forkFailed":
      if (a.path !== t.path) return s;
      return setTree(s, note({ ...t, busy: false }, a.error, true));
    case "tree.stale":
      if (a.path !== t.path) return s;
      return reload(s, note({ ...t, busy: false, confirm: null }, a.error, true));
    case "tree.previewMax": {
      const max = Math.max(0, a.max);
      return t.previewTop > max ? setTree(s, { ...t, previewTop: max }) : s;
    }
  }
}

/** Leaves for pi (or prints the path, picking) once the position is written. */
function resumeOut(s: TreeHost, t: TreeState, note?: string, at?: ResumeAt): LeaveEffect {
  if (s.print) return { type: "exit", outcome: { kind: "print", path: t.path } };
  const where = { cwd: at ? at.cwd : t.cwd };
  return { type: "exit", outcome: { kind: "resume", path: t.path, ...where, ...(note ? { note } : {}) } };
}

/** A fork was written: back to the list with the fork selected (threaded under its parent). */
function forked<S extends TreeHost>(s: S, a: Extract<TreeAction, { type: "tree.forked" }>): S {
  let sessions = s.sessions;
  if (a.summary) {
    const parentKnown = s.sessions.has(a.source);
    const summary: SessionSummary = parentKnown
      ? { ...a.summary, lineage: { status: "resolved", path: a.source, by: "realpath" } }
      : a.summary;
    sessions = mergeBatch(s.sessions, [], [summary]);
  }
  // The new file is ours: deleting it at once is no reason to warn about pi.
  if (a.summary) s = recordOwnWrite({ ...s, sessions }, a.path, { bytes: a.summary.bytes, mtimeMs: a.summary.mtimeMs });
  const left = s.tree && s.tree.path === a.source ? closeTree(s) : s;
  // u takes it back (to the trash): a single key wrote it.
  const fork = sessions.get(a.path);
  const undo = fork ? { records: [], sessions: [], fork: deleteTarget(s, fork) } : s.undo;
  const next = refresh({ ...left, sessions, selectedPath: a.path, userSelected: true, undo });
  return say(next, fork ? `forked → ${basename(a.path)} · u undoes it` : `forked → ${basename(a.path)}`);
}

import { isCurrentLoad } from "../core/sessionLoad.js";
import { basename } from "node:path";
import type { SessionIndex } from "../../store/session-index.js";
import { sanitizeLine } from "../../text/sanitize.js";
import type { CommandId, Mode } from "../keys/commands.js";
import type { Keymap } from "../keys/keymap.js";
import { type Layered, push } from "../core/layers.js";
import type { ListState } from "../list/list.js";
import { type Next, withEffect } from "../core/next.js";
import { INTERRUPT, type LeaveEffect } from "../core/outcome.js";
import { say, type WithStatus } from "../core/status.js";
import type { TreeState } from "../tree/treeState.js";
import type { ReaderEffect } from "./readerEffects.js";
import * as text from "../core/textInput.js";
import { currentId } from "../tree/treeState.js";
import {
  clearSearch,
  cursorEntry,
  cycleAllTools,
  cycleTool,
  jumpMessage,
  moveCursor,
  newReaderState,
  nextMatch,
  type ReaderState,
  resize,
  scroll,
  search,
  siblingBranch,
  toEnd,
  toggleOriginal,
  toggleThinking,
  toolBlockAt,
  toStart,
  withBranch,
  withIndex,
} from "./readerState.js";

/*
 * The transcript reader inside the app's reducer: its commands, and the results of its
 * one effect (loading the session's index). Its state lives in AppState.reader while the
 * { kind: "reader" } layer is on the stack, over the list or over the tree.
 */

export type ReaderAction =
  | { type: "reader.loaded"; path: string; seq: number; index: SessionIndex }
  | { type: "reader.loadFailed"; path: string; seq: number; error: string }
  /** The transcript's width and the window's height (the screen tells, on mount and resize). */
  | { type: "reader.resize"; width: number; height: number };

export function isReaderAction(a: { type: string }): a is ReaderAction {
  return a.type.startsWith("reader.");
}

export function isReaderCommand(c: CommandId): boolean {
  return c.startsWith("reader.");
}

export function isReaderMode(m: Mode): boolean {
  return m === "reader" || m === "readerSearch";
}

const READER_LAYER = { kind: "reader" } as const;

/** What the reader reads beyond its own state: the list or the tree it opens from, the layers, the status, the keys (for its help). */
export interface ReaderHost extends ListState, Layered, WithStatus {
  reader: ReaderState | null;
  tree: TreeState | null;
  keymap: Keymap;
  helpTop: number;
}

type ReaderNext<S> = Next<S, ReaderEffect | LeaveEffect>;

function setReader<S extends ReaderHost>(s: S, r: ReaderState): S {
  return r === s.reader ? s : { ...s, reader: r };
}

/** Opens the reader: from the tree on the branch through its selected entry (at it), else on the selected session's active branch (at its end). */
export function openReader<S extends ReaderHost>(s: S): ReaderNext<S> {
  const t = s.stack.some((l) => l.kind === "tree") ? s.tree : null;
  if (t) {
    const focus = currentId(t);
    const r = newReaderState(t.path, t.cwd, t.title, focus);
    const stack = [...s.stack, READER_LAYER];
    // The tree's index is the skimmed one the reader reads from: no second load.
    if (t.index) return { ...s, stack, reader: withIndex(r, t.index) };
    return withEffect({ ...s, stack, reader: r }, { type: "reader.load", path: r.path, seq: r.loadSeq });
  }
  const sel = s.rows[s.cursor]?.session;
  if (!sel) return s;
  const title = sanitizeLine(sel.name ?? "") || sanitizeLine(sel.firstMessage) || basename(sel.path);
  const r = newReaderState(sel.path, sel.cwd, title);
  return withEffect({ ...push(s, READER_LAYER), reader: r }, { type: "reader.load", path: r.path, seq: r.loadSeq });
}

/** Back to where the reader was opened (the list or the tree), as it was. */
export function closeReader<S extends ReaderHost>(s: S): S {
  return { ...s, reader: null, stack: s.stack.filter((l) => l.kind !== "reader") };
}

/** The reader's search field set to `next`. */
export function readerInput<S extends ReaderHost>(s: S, next: text.TextInput): S {
  const r = s.reader;
  return r?.input && next !== r.input ? setReader(s, { ...r, input: next }) : s;
}

/** Ctrl+C: the program ends as a shell's interrupt does (130), on every screen alike. */
const interrupt = <S extends ReaderHost>(s: S): ReaderNext<S> => withEffect(s, INTERRUPT);

export function runReaderCommand<S extends ReaderHost>(s: S, c: CommandId): ReaderNext<S> {
  if (c === "reader.open") return openReader(s);
  const r = s.reader;
  if (!r) return s;
  const page = Math.max(1, r.height - 1);
  switch (c) {
    case "reader.down":
      return setReader(s, moveCursor(r, 1));
    case "reader.up":
      return setReader(s, moveCursor(r, -1));
    case "reader.halfDown":
      return setReader(s, scroll(r, Math.max(1, Math.floor(r.height / 2))));
    case "reader.halfUp":
      return setReader(s, scroll(r, -Math.max(1, Math.floor(r.height / 2))));
    case "reader.pageDown":
      return setReader(s, scroll(r, page));
    case "reader.pageUp":
      return setReader(s, scroll(r, -page));
    case "reader.top":
      return setReader(s, toStart(r));
    case "reader.bottom":
      return setReader(s, toEnd(r));
    case "reader.prevMessage":
      return setReader(s, jumpMessage(r, -1));
    case "reader.nextMessage":
      return setReader(s, jumpMessage(r, 1));
    case "reader.search":
      // An empty field, as less and vim open theirs: typing a new word never lands after
      // the old one. The last search still runs with n / N until Enter sends a new one.
      return setReader(s, { ...r, input: text.EMPTY_INPUT });
    case "reader.inputSubmit": {
      if (!r.input) return s;
      const found = search({ ...r, input: null }, r.input.value.trim());
      if (!found.query) return setReader(s, found);
      return setReader(
        found.matches.length ? s : say(s, `no match for "${sanitizeLine(found.query)}" in what is shown`, "note"),
        found,
      );
    }
    case "reader.inputCancel":
      return setReader(s, { ...r, input: null });
    case "reader.nextMatch":
    case "reader.prevMatch":
      if (r.matches.length === 0) return say(s, r.query ? "no matches" : "no search: press / to search", "note");
      return setReader(s, nextMatch(r, c === "reader.nextMatch" ? 1 : -1));
    case "reader.prevBranch":
    case "reader.nextBranch": {
      if (!r.index) return s;
      const sib = siblingBranch(r.index, r.ids, cursorEntry(r), c === "reader.nextBranch" ? 1 : -1);
      if (!sib) return say(s, "this branch has no other branch beside it", "note");
      return setReader(say(s, "switched to a sibling branch"), withBranch(r, r.index, sib.ids, sib.focusId));
    }
    case "reader.tool": {
      const b = toolBlockAt(r);
      if (b < 0) return say(s, "no tool call under the cursor (Z: every tool call)", "note");
      return setReader(s, cycleTool(r, b));
    }
    case "reader.allTools": {
      const next = cycleAllTools(r);
      return setReader(say(s, `every tool call ${next.tools}`), next);
    }
    case "reader.thinking": {
      const next = toggleThinking(r);
      return setReader(say(s, next.thinking ? "thinking shown" : "thinking hidden"), next);
    }
    case "reader.original": {
      if (r.edits.size === 0) return say(s, "no context edit on this branch: entries are as written", "note");
      const next = toggleOriginal(r);
      return setReader(
        say(
          s,
          next.original
            ? "entries as written (O: as the model sees them)"
            : "as the model sees them, context edits applied (O: as written)",
        ),
        next,
      );
    }
    case "reader.back":
      return r.query ? setReader(s, clearSearch(r)) : closeReader(s);
    case "reader.close":
      return closeReader(s);
    case "app.interrupt":
      return r.input ? setReader(s, { ...r, input: null }) : interrupt(s);
    case "help.open":
      // The reader's own keys first.
      return { ...push(s, { kind: "help", first: "reader" }), helpTop: 0 };
    default:
      return s;
  }
}

export function readerReducer<S extends ReaderHost>(s: S, a: ReaderAction): S {
  const r = s.reader;
  if (!r) return s;
  switch (a.type) {
    case "reader.loaded":
      if (!isCurrentLoad(r, a)) return s;
      return setReader(s, withIndex(r, a.index));
    case "reader.loadFailed":
      if (!isCurrentLoad(r, a)) return s;
      return setReader(s, { ...r, status: "error", error: a.error });
    case "reader.resize":
      return setReader(s, resize(r, a.width, a.height));
  }
}

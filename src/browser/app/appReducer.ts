import type { Key } from "../keys/key.js";
import { disabledReason } from "./disabledReason.js";
import type { ScanEvent } from "../../scan/scan-events.js";
import { parseQuery } from "../../search/query.js";
import { nextSort, type SortKey } from "../../search/sort.js";
import { type CommandId, type Mode, isTreeCommand, TEXT_MODES } from "../keys/commands.js";
import { commandFor, DEFAULT_KEYMAP, type Keymap, keysLabel } from "../keys/keymap.js";
import { isMenuAction, isMenuListKey, type MenuScreen } from "../keys/menuActions.js";
import { unboundKeyNote } from "../keys/elsewhere.js";
import type { Scope } from "../list/derive.js";
import { push, replaceTop } from "../core/layers.js";
import { say } from "../core/status.js";
import { toStep, withEffect } from "../core/next.js";
import { INTERRUPT, QUIT } from "../core/outcome.js";
import { DEFAULT_PREVIEW_SHARE, stepShare } from "../core/previewShare.js";
import {
  type FullTextAction,
  hitsShownChanged,
  INITIAL_FULL_TEXT,
  reduceFullText,
  settleDeclined,
} from "../list/fullText.js";
import * as text from "../core/textInput.js";
import {
  isTreeAction,
  isTreeMode,
  runTreeCommand,
  type TreeAction,
  treeInput,
  treeReducer,
} from "../tree/treeReducer.js";
import { clearMarks, lifecycleCommand, lifecycleKey, lifecycleReducer, renameInput } from "../lifecycle/lifecycle.js";
import {
  initialLifecycle,
  isLifecycleMode,
  type LifecycleAction,
  type StatusMessage,
} from "../lifecycle/lifecycleTypes.js";
import {
  isUsageAction,
  isUsageCommand,
  openUsage,
  runUsageCommand,
  type UsageAction,
  type UsageCommandId,
  usageReducer,
} from "../usage/usageReducer.js";
import {
  type AppState,
  type Layer,
  modeOf,
  moveTo,
  type Next,
  pop,
  refresh,
  selectedSession,
  type Step,
  topLayer,
} from "./appState.js";
import { foldScan } from "./scanFold.js";
import { actsOnRow, afterVerify, holdBack, refuseDeclined } from "./holdBack.js";
import type { VerifiedAction } from "./verifyTypes.js";
import { type HostUpdate, type HostView, withHostRows } from "../list/hosts.js";
import type { ListedSession } from "../list/sessions.js";
import { reselect } from "./reselect.js";
import {
  isReaderAction,
  isReaderCommand,
  isReaderMode,
  type ReaderAction,
  readerInput,
  readerReducer,
  runReaderCommand,
} from "../reader/readerReducer.js";
import { isTakeoutCommand, runTakeoutCommand, takeoutReducer } from "../copy-export/copyExportReducer.js";
import type { TakeoutAction } from "../copy-export/copyExportTypes.js";
import { type MouseAction, mouseReducer } from "./mouseReducer.js";
import {
  isTrashAction,
  isTrashCommand,
  runTrashCommand,
  type TrashAction,
  trashConfirmKey,
  trashLayer,
  trashReducer,
} from "../trash/trashReducer.js";

export {
  type AppState,
  type Layer,
  type ScanProgress,
  modeOf,
  moveTo,
  pop,
  refresh,
  selectedSession,
  topLayer,
} from "./appState.js";
export type { Next, Step } from "./appState.js";

export type AppAction =
  /**
   * `more`: keys read after this one wait to be handed on (KeyStream.queued). A query typed
   * then is not derived until the last of them (see update).
   */
  | { type: "key"; input: string; key: Key; more?: boolean }
  /** The status message has been up long enough (App's timer); only that very message goes. */
  | { type: "status.fade"; status: StatusMessage }
  /** No key waits behind the last one handled: rows put off for keys read together are derived (update). */
  | { type: "rows.due" }
  /** Keys typed on a first screen that showed other rows than the list has were not applied (launch.tsx): said. */
  | { type: "keys.dropped"; count: number }
  /** Bracketed paste: text for a text field, never keys. */
  | { type: "paste"; text: string }
  | { type: "command"; command: CommandId }
  /** The one scan stream: what a scan (or the first screen, or an index) found, in order (scanFold.ts). */
  | { type: "scan"; events: readonly ScanEvent[] }
  /** `visible` false: the screen says "terminal too small" and keys other than quit do nothing. */
  | { type: "viewport"; pageSize: number; visible?: boolean }
  /** A choice made in a select list (dialog or action menu): the list closes, the command runs. */
  | { type: "choose"; command: CommandId }
  | { type: "preview.bounds"; path: string; min: number; max: number }
  /** What a host answered (src/remote): its state, and its rows when they changed. */
  // What hosts said, together: answers that came at once are one refresh of the list, one frame.
  | { type: "hosts.update"; updates: readonly HostUpdate[] }
  | TreeAction
  | ReaderAction
  | TakeoutAction
  | MouseAction
  | UsageAction
  | TrashAction
  | LifecycleAction
  | FullTextAction
  /** The file of a row still to check, read for the action held back on it (holdBack.ts). */
  | VerifiedAction;

export interface InitOptions {
  launchCwd: string;
  storeDir?: string;
  all?: boolean;
  print?: boolean;
  /** The pi command, word by word (splitCommand): what the copied resume command runs. */
  piCommand?: readonly string[];
  keymap?: Keymap;
  sort?: SortKey;
  /** Configured starting scope; "auto" (default): this folder when it has sessions, else all. */
  scope?: "auto" | Scope;
  /** Start with this search. */
  query?: string;
  /** The session open in the launching pi (extension): marked, never deleted. */
  openInPi?: string;
  /** Full-text search includes tool output from the start. */
  searchToolOutput?: boolean;
  /** Shown in the status line at start (config mistakes, pi's exit status), until the first key. */
  notice?: string;
  /** Select this session once the scan lists it (back from pi: the one resumed). */
  select?: string;
  /** The preview's share of the body (carried over a run of pi); the default otherwise. */
  previewShare?: number;
  /** Other machines listed too (src/remote), with what is known of each at start. */
  hosts?: readonly HostView[];
}

export function initialState(o: InitOptions): AppState {
  return {
    keymap: o.keymap ?? DEFAULT_KEYMAP,
    launchCwd: o.launchCwd,
    storeDir: o.storeDir,
    print: !!o.print,
    ...(o.piCommand ? { piCommand: o.piCommand } : {}),
    sessions: new Map(),
    rows: [],
    scopeTotal: 0,
    selectedPath: null,
    userSelected: false,
    cursor: 0,
    pageSize: 10,
    visible: true,
    scope: o.scope === "hosts" && o.hosts?.length ? "hosts" : o.all || o.scope === "all" ? "all" : "cwd",
    scopeSettled: !!o.all || (o.scope !== undefined && o.scope !== "auto"),
    ...(o.hosts?.length ? { hosts: o.hosts } : {}),
    sort: o.sort ?? "recent",
    search: o.query ? text.insertText(text.EMPTY_INPUT, o.query) : text.EMPTY_INPUT,
    query: o.query ? parseQuery(o.query) : { terms: [] },
    fullText: o.searchToolOutput ? { ...INITIAL_FULL_TEXT, includeTools: true } : INITIAL_FULL_TEXT,
    openInPi: o.openInPi,
    // A picker opens typing into its search, as fzf does; Enter picks the top (selected) hit.
    stack: o.print ? [{ kind: "search" }] : [],
    tree: null,
    reader: null,
    helpTop: 0,
    namedOnly: false,
    showPaths: false,
    preview: { path: null, offset: 0 },
    previewShare: o.previewShare ?? DEFAULT_PREVIEW_SHARE,
    previewBounds: { path: null, min: 0, max: 0 },
    scan: { discovered: null, probed: 0, scanned: 0, diagnostics: 0, skipped: [], done: false },
    ...initialLifecycle(),
    ...(o.notice ? { status: { text: o.notice, tone: "error" as const } } : {}),
    ...(o.select ? { reselect: o.select } : {}),
  };
}

function setSearch(s: AppState, search: text.TextInput, putOff = false): AppState {
  if (search === s.search) return s;
  if (search.value === s.search.value) return { ...s, search };
  // As fzf: every change of the query selects the best hit, and the selection follows the
  // best hit as results arrive until the user moves it.
  const next = { ...s, search, query: parseQuery(search.value), userSelected: false, cursor: 0 };
  // More keys are waiting: the rows are derived once they are in (update), not per key. The
  // mark is what tells update this step was a query edit.
  return putOff ? { ...next, rowsPutOff: true } : refresh(next);
}

/**
 * Esc's clearing of the query: the whole list comes back around the session the cursor is
 * on (lazygit, k9s), not at the best hit of an empty query.
 */
function clearSearch(s: AppState): AppState {
  const search = text.clearInput();
  if (!s.search.value) return setSearch(s, search);
  return refresh({ ...s, search, query: parseQuery(""), userSelected: s.userSelected || s.selectedPath !== null });
}

const quit = (s: AppState): Next => withEffect(s, QUIT);

/** The screens (not fields or dialogs) where a key that means nothing is said. */
const SCREEN_MODES: ReadonlySet<Mode> = new Set<Mode>(["list", "tree", "reader", "usage", "trash"]);
/** Ctrl+C: leaves as q does, with the interrupt's 130. */
const interrupt = (s: AppState): Next => withEffect(s, INTERRUPT);

/** The preview's offset for the selected session (a new selection starts at 0). */
export function previewOffset(s: AppState): number {
  const sel = selectedSession(s);
  return sel && s.preview.path === sel.path ? s.preview.offset : 0;
}

/** Lines one J/K press scrolls the preview. */
const PREVIEW_STEP = 3;

function scrollPreview(s: AppState, delta: number): AppState {
  const sel = selectedSession(s);
  if (!sel) return s;
  const b = s.previewBounds.path === sel.path ? s.previewBounds : { min: -Infinity, max: Infinity };
  const offset = Math.max(b.min, Math.min(b.max, previewOffset(s) + delta));
  return offset === previewOffset(s) ? s : { ...s, preview: { path: sel.path, offset } };
}

// ---- commands ----

/** The usage view's layer replaced by its reducer's next one (closed when null). */
function withLayer(s: AppState, l: Layer, next: Layer | null): AppState {
  if (next === l) return s;
  return next ? replaceTop(s, next) : pop(s);
}

function runUsage(s: AppState, c: UsageCommandId): AppState {
  const l = topLayer(s);
  if (c === "usage.open") return l?.kind === "usage" ? s : push(s, openUsage());
  return l?.kind === "usage" ? withLayer(s, l, runUsageCommand(l, c)) : s;
}

/** Commands that are another command under pi's key (the tree's Ctrl+X copies as y does). */
const SAME_AS: Partial<Record<CommandId, CommandId>> = { "tree.copy": "copy.message" };

export function runCommand(s: AppState, command: CommandId): Next {
  const c = SAME_AS[command] ?? command;
  // pi: with a query, Ctrl+Backspace is the field's (a word back), whatever the list holds.
  if (c === "session.deleteNoninvasive" && s.search.value) {
    if (modeOf(s) === "search") return setSearch(s, text.editByCommand(s.search, "input.deleteWord") ?? s.search);
    const del = keysLabel(s.keymap, "session.delete", 1);
    return say(s, `the query is not empty: Esc clears it${del ? `, or ${del} deletes` : ""}`, "note");
  }
  const why = disabledReason(s, c);
  if (why) return say(s, why, "note");
  // The action menu opens over the list, the tree or the reader with that screen's actions.
  if (c === "menu.open") return openMenu(s);
  // The reader and taking things out (copy, export, n, D) have their own reducers.
  if (isTakeoutCommand(c) || modeOf(s) === "export") return runTakeoutCommand(s, c);
  if (isReaderCommand(c) || isReaderMode(modeOf(s))) return runReaderCommand(s, c);
  if (isTreeCommand(c) || isTreeMode(modeOf(s))) return runTreeCommand(s, c);
  if (isUsageCommand(c)) return runUsage(s, c);
  if (isTrashCommand(c)) return runTrashCommand(s, c);
  const page = Math.max(1, s.pageSize - 1);
  // The help and the skipped files take the body and scroll by helpTop.
  const inHelp = modeOf(s) === "help" || modeOf(s) === "helpFilter" || modeOf(s) === "skipped";
  switch (c) {
    case "list.up":
      return inHelp ? { ...s, helpTop: Math.max(0, s.helpTop - 1) } : moveTo(s, s.cursor - 1);
    case "list.down":
      return inHelp ? { ...s, helpTop: s.helpTop + 1 } : moveTo(s, s.cursor + 1);
    case "list.pageUp":
      return inHelp ? { ...s, helpTop: Math.max(0, s.helpTop - page) } : moveTo(s, s.cursor - page);
    case "list.pageDown":
      return inHelp ? { ...s, helpTop: s.helpTop + page } : moveTo(s, s.cursor + page);
    case "list.halfUp": {
      const half = Math.max(1, Math.floor(s.pageSize / 2));
      return inHelp ? { ...s, helpTop: Math.max(0, s.helpTop - half) } : moveTo(s, s.cursor - half);
    }
    case "list.halfDown": {
      const half = Math.max(1, Math.floor(s.pageSize / 2));
      return inHelp ? { ...s, helpTop: s.helpTop + half } : moveTo(s, s.cursor + half);
    }
    case "list.top":
      return inHelp ? { ...s, helpTop: 0 } : moveTo(s, 0);
    case "list.bottom":
      // The help view clamps helpTop to its content when it renders.
      return inHelp ? { ...s, helpTop: Number.MAX_SAFE_INTEGER } : moveTo(s, s.rows.length - 1);
    case "preview.toggle":
      return { ...s, previewShare: s.previewShare > 0 ? 0 : DEFAULT_PREVIEW_SHARE };
    case "preview.grow":
    case "preview.shrink": {
      const next = stepShare(s.previewShare, c === "preview.grow" ? 1 : -1);
      return next === s.previewShare ? s : { ...s, previewShare: next };
    }
    case "list.previewUp":
      return scrollPreview(s, -PREVIEW_STEP);
    case "list.previewDown":
      return scrollPreview(s, PREVIEW_STEP);
    case "search.start":
      return { ...push(s, { kind: "search" }), search: text.moveCursor(s.search, "end") };
    case "search.submit":
      // A picker (--print, the pi extension) picks at once, as fzf and pi's /resume do.
      return s.print && s.rows.length > 0 ? runCommand(pop(s), "session.resume") : pop(s);
    case "search.cancel":
      // The picker is pi's /resume and fzf: one Esc cancels the pick (exit 130), whatever is typed.
      if (s.print) return quit(s);
      return clearSearch(pop(s));
    case "input.deleteBack":
    case "input.deleteWord":
    case "input.clear":
    case "input.left":
    case "input.right":
    case "input.home":
    case "input.end":
      return s; // field edits: the one text-field path in the key router
    case "scope.toggle": {
      // This folder → all folders → every host (when there are hosts) → this folder.
      const order: Scope[] = s.hosts?.length ? ["cwd", "all", "hosts"] : ["cwd", "all"];
      return refresh({ ...s, scope: order[(order.indexOf(s.scope) + 1) % order.length], scopeSettled: true });
    }
    case "sort.cycle":
      return refresh({ ...s, sort: nextSort(s.sort) });
    case "list.named": {
      // pi's named-only filter: the header says it while it is on.
      const namedOnly = !s.namedOnly;
      return say(
        refresh({ ...s, namedOnly }),
        namedOnly ? "named sessions only" : "every session, named or not",
        "note",
      );
    }
    case "list.paths":
      return { ...s, showPaths: !s.showPaths };
    case "session.deleteNoninvasive":
      // pi: it deletes only when the query is empty (a query is the field's, above).
      return lifecycleCommand(s, "session.delete");
    case "search.toggleTools": {
      // Said, as it changes nothing on screen until there is a search.
      const includeTools = !s.fullText.includeTools;
      const n = refresh({ ...s, fullText: { ...s.fullText, includeTools } });
      return say(n, `full-text search ${includeTools ? "includes" : "leaves out"} tool calls and output`, "note");
    }
    case "session.resume": {
      const sel = selectedSession(s);
      if (!sel) return s;
      if (s.print) return withEffect(s, { type: "exit", outcome: { kind: "print", path: sel.path } });
      return withEffect(s, { type: "resume", path: sel.path, cwd: sel.cwd, launchCwd: s.launchCwd });
    }
    case "skipped.open":
      return { ...push(s, { kind: "skipped" }), helpTop: 0 };
    case "skipped.close":
      return topLayer(s)?.kind === "skipped" ? pop(s) : s;
    case "help.open": {
      // The help opens at the section of the screen it is asked from.
      const mode = modeOf(s);
      const first = mode === "trash" || mode === "usage" ? mode : undefined;
      return { ...push(s, { kind: "help", ...(first ? { first } : {}) }), helpTop: 0 };
    }
    case "help.back": {
      // Esc steps back: a kept filter first, then the help.
      const top = topLayer(s);
      return top?.kind === "help" && top.filter
        ? { ...replaceTop(s, { ...top, filter: undefined }), helpTop: 0 }
        : pop(s);
    }
    case "help.close":
      // ? and q close it, as they close (?) or leave (q) every other view.
      return pop(s);
    case "help.filter":
    case "help.filterDone":
    case "help.filterCancel": {
      const top = topLayer(s);
      if (top?.kind !== "help") return s;
      const filter =
        c === "help.filterCancel" ? undefined : c === "help.filter" ? (top.filter ?? text.EMPTY_INPUT) : top.filter;
      const kept = filter && (c === "help.filter" || filter.value) ? filter : undefined;
      return { ...replaceTop(s, { ...top, filter: kept, typing: c === "help.filter" }), helpTop: 0 };
    }
    case "menu.close":
      return modeOf(s) === "menu" ? pop(s) : s;
    case "app.back":
      // Esc steps back (the query, then the marks) and never leaves: only q and Ctrl+C do.
      // The picker is pi's /resume: Esc cancels the pick at once.
      if (s.print) return quit(s);
      if (s.search.value) return clearSearch(s);
      return clearMarks(s) ?? (s.print ? quit(s) : say(s, "q quits", "note"));
    case "app.quit":
      return quit(s);
    case "app.suspend":
      return withEffect(s, { type: "suspend" });
    case "session.rename":
    case "session.delete":
    case "session.undo":
    case "session.mark":
    case "rename.submit":
    case "rename.cancel":
    case "confirm.delete":
    case "confirm.cancel":
    case "confirm.yes":
    case "confirm.permanent":
      return lifecycleCommand(s, c);
    case "app.interrupt":
      // A question or a menu over the screen is cancelled first (as Esc would), then Ctrl+C quits.
      return modeOf(s) === "menu" ? pop(s) : interrupt(s);
    default:
      return s;
  }
}

function openMenu(s: AppState): AppState {
  const mode = modeOf(s);
  const screen: MenuScreen | undefined = mode === "list" || mode === "tree" || mode === "reader" ? mode : undefined;
  const path = mode === "tree" ? s.tree?.path : mode === "reader" ? s.reader?.path : selectedSession(s)?.path;
  return screen && path ? push(s, { kind: "menu", path, screen }) : s;
}

/** A key in the action menu: its own (close), else the screen's key for an action the menu lists, which runs it. */
function menuKey(s: AppState, c: CommandId | null | undefined, input: string, key: Key): Next {
  if (c) return runCommand(s, c);
  const top = topLayer(s);
  if (top?.kind !== "menu" || isMenuListKey(input, key)) return s;
  const action = commandFor(s.keymap, top.screen, input, key);
  return action && isMenuAction(top.screen, action) ? fromMenu(s, action) : s;
}

/**
 * A menu's action, run on the session the menu was opened for: the list's selection may have
 * moved under it (hits arriving, a scan), and the action must not fall on another session.
 */
function fromMenu(s: AppState, action: CommandId): Next {
  const top = topLayer(s);
  if (top?.kind !== "menu") return s;
  const under = pop(s);
  if (top.screen !== "list" || !actsOnRow(action)) return runCommand(under, action);
  const at = under.rows.findIndex((r) => r.session.path === top.path);
  if (at < 0) return say(under, "not done: the session the menu was opened for is no longer listed", "note");
  return runCommand(at === under.cursor ? under : moveTo(under, at), action);
}

// ---- text fields ----

interface Field {
  value: text.TextInput;
  set(next: text.TextInput): AppState;
}

/** The text field a text mode edits: one path for typing, editing and pasting in all of them. */
function textField(s: AppState, mode: Mode, putOff = false): Field | undefined {
  if (mode === "search") return { value: s.search, set: (t) => setSearch(s, t, putOff) };
  if (mode === "readerSearch")
    return s.reader?.input ? { value: s.reader.input, set: (t) => readerInput(s, t) } : undefined;
  if (mode === "helpFilter") {
    const top = topLayer(s);
    return top?.kind === "help" && top.filter
      ? { value: top.filter, set: (t) => ({ ...replaceTop(s, { ...top, filter: t }), helpTop: 0 }) }
      : undefined;
  }
  if (mode === "rename") {
    const top = topLayer(s);
    return top?.kind === "rename" ? { value: top.input, set: (t) => renameInput(s, t) } : undefined;
  }
  const input = s.tree?.input;
  return input ? { value: input.text, set: (t) => treeInput(s, t) } : undefined;
}

// ---- the reducer ----

/** The app's one update: the new state and the effects it asks for (run by src/browser/app/effectRunner.ts). */
export function update(s: AppState, a: AppAction): Step {
  if (s.rowsPutOff) {
    // Only a query edit with more keys behind it leaves the rows for the last of them: tried
    // on the state unmarked, a step setSearch marks again is one. Anything else, a list move
    // included (on the old rows it may do nothing, or only set userSelected, and look like an
    // edit), is done on rows derived for the query as it is: each key as if typed alone.
    if (a.type === "key" && modeOf(s) === "search") {
      const { rowsPutOff: _, ...unmarked } = s;
      // The last key too is tried as if more came: a query edit then derives its rows once,
      // not the rows put off and then its own (the same rows: userSelected is false here).
      const tried = stepOf(unmarked, a.more ? a : { ...a, more: true });
      if (tried[1].length === 0 && tried[0].rowsPutOff) return a.more ? tried : [refresh(tried[0]), []];
    }
    if (a.type === "scan") {
      // A batch that derives the rows (new sessions) needs none derived before it: foldScan
      // reads no row, and with userSelected false the rows and cursor are the query's alone.
      const folded = stepOf(s, a);
      if (!folded[0].rowsPutOff) return folded;
    }
    s = refresh(s);
  }
  return stepOf(s, a);
}

function stepOf(s: AppState, a: AppAction): Step {
  // An action on a hit its file has not yet confirmed waits for it (holdBack.ts).
  const verify = holdBack(s, a);
  if (verify) return [s, [verify]];
  // ...and one on the row its file just turned down is not done.
  const refused = refuseDeclined(s, a);
  if (refused) return [refused, []];
  const [next, effects] = toStep(appReducer(s, a));
  // A held action's verdict is that action, typed by the user: it settles the status and the reselect as it would.
  const by = a.type === "fulltext.verified" ? a.action.type : a.type;
  return [leaveDeclined(reselect(settleStatus(s, next, by), by)), effects];
}

/** A hit its file turned down while selected goes once the cursor has left its row (see FullTextState.declined). */
function leaveDeclined(s: AppState): AppState {
  const ft = settleDeclined(s.fullText, s.selectedPath);
  if (ft === s.fullText) return s;
  const next = { ...s, fullText: ft };
  return hitsShownChanged(s.fullText, ft, s.query, s.scope) ? refresh(next) : next;
}

/** The view a status line speaks of: the top layer's (a search bar is the list's). */
function viewOf(s: AppState): string {
  const top = topLayer(s);
  return !top || top.kind === "search" ? "list" : top.kind;
}

/**
 * A status answers what was done where it was done. A key or click that opens or leaves a
 * view takes the old one away (a "copied" line under the reader of another session read as
 * the reader's); a note ("not here", "q quits") answers one key, and the next one takes it
 * away, so it never reads as the answer to a key that did nothing. A status the action
 * itself set stays; results that arrive later (a scan, a write) never clear one.
 */
function settleStatus(before: AppState, after: AppState, by: string): AppState {
  if (!after.status || after.status !== before.status) return after;
  if (by !== "key" && by !== "mouse") return after;
  return after.status.tone === "note" || viewOf(after) !== viewOf(before) ? { ...after, status: undefined } : after;
}

export function appReducer(s: AppState, a: AppAction): Next {
  if (isTreeAction(a)) return treeReducer(s, a);
  if (isReaderAction(a)) return readerReducer(s, a);
  if (isTrashAction(a)) return trashReducer(s, a);
  if (isUsageAction(a)) {
    const l = topLayer(s);
    return l?.kind === "usage" ? withLayer(s, l, usageReducer(l, a)) : s;
  }
  switch (a.type) {
    case "takeout.done":
      return takeoutReducer(s, a);
    case "mouse":
      return s.visible ? mouseReducer(s, a, runCommand) : s;
    case "key": {
      // The key router: the mode is read here, from the state this key applies to. Keys
      // arrive one per action (src/browser/keys/keyStream.ts), however the terminal sent them.
      const mode = modeOf(s);
      if (!s.visible) {
        // Behind "terminal too small" nothing the user cannot see may change: only quit.
        const c = commandFor(s.keymap, "list", a.input, a.key);
        return c === "app.quit" ? quit(s) : c === "app.interrupt" ? interrupt(s) : s;
      }
      const c = commandFor(s.keymap, mode, a.input, a.key);
      if (TEXT_MODES.has(mode)) {
        // A hit its file turned down goes when the cursor leaves it (leaveDeclined): that needs rows.
        const field = textField(s, mode, a.more === true && s.fullText.declined === null);
        const typed = !c && a.input && !a.key.ctrl && !a.key.meta ? a.input : "";
        const next =
          field && (c ? text.editByCommand(field.value, c) : typed ? text.insertText(field.value, typed) : undefined);
        if (field && next) return next === field.value ? s : field.set(next);
      }
      if (isLifecycleMode(mode)) return lifecycleKey(s, c, a.input, a.key);
      if (mode === "trashConfirm" || mode === "trashConfirmPermanent") return trashConfirmKey(s, c, a.key);
      if (mode === "menu") return menuKey(s, c, a.input, a.key);
      if (c) return runCommand(s, c);
      // A typed key that means nothing on this screen is said, never passed over in silence.
      if (SCREEN_MODES.has(mode)) {
        const why = unboundKeyNote(s.keymap, mode, a.input, a.key);
        if (why) return say(s, why, "note");
      }
      return s;
    }
    case "status.fade":
      return s.status === a.status ? { ...s, status: undefined } : s;
    case "rows.due":
      return s; // derived by update, before this

    case "keys.dropped":
      return a.count > 0 ? say(s, droppedKeysNote(a.count), "note") : s;
    case "paste": {
      if (!s.visible) return s;
      const field = TEXT_MODES.has(modeOf(s)) ? textField(s, modeOf(s)) : undefined;
      if (!field) return say(s, "paste ignored: open a text field (/ to search) first", "note");
      const next = text.pasteText(field.value, a.text);
      return next === field.value ? s : field.set(next);
    }
    case "command":
      return runCommand(s, a.command);
    case "scan":
      return foldScan(s, a.events);
    case "viewport": {
      const visible = a.visible ?? true;
      return a.pageSize === s.pageSize && visible === s.visible
        ? s
        : { ...s, pageSize: Math.max(1, a.pageSize), visible };
    }
    case "choose": {
      // As a key: nothing while the terminal is too small (nor held, see holdBack).
      if (!s.visible) return s;
      const mode = modeOf(s);
      if (mode === "menu") return fromMenu(s, a.command);
      if (mode === "export") return runCommand(s, a.command);
      return s;
    }
    case "hosts.update": {
      let hosts = s.hosts ?? [];
      const rows = new Map<string, readonly ListedSession[]>();
      for (const { host, sessions } of a.updates) {
        hosts = hosts.some((h) => h.name === host.name)
          ? hosts.map((h) => (h.name === host.name ? host : h))
          : [...hosts, host];
        if (sessions) rows.set(host.name, sessions);
      }
      if (!rows.size) return { ...s, hosts };
      return refresh({ ...s, hosts, sessions: withHostRows(s.sessions, rows) });
    }
    case "preview.bounds": {
      const b = s.previewBounds;
      if (b.path === a.path && b.min === a.min && b.max === a.max) return s;
      const previewBounds = { path: a.path, min: a.min, max: a.max };
      // Content that shrank (a reload) pulls the offset back within it.
      const p = s.preview;
      const preview =
        p.path === a.path && (p.offset < a.min || p.offset > a.max)
          ? { ...p, offset: Math.max(a.min, Math.min(a.max, p.offset)) }
          : p;
      return { ...s, previewBounds, preview };
    }
    case "fulltext.start":
    case "fulltext.hits":
    case "fulltext.done": {
      const ft = reduceFullText(s.fullText, a, s.selectedPath, (p) => s.sessions.get(p));
      if (ft === s.fullText) return s;
      const next = { ...s, fullText: ft };
      return hitsShownChanged(s.fullText, ft, s.query, s.scope) ? refresh(next) : next;
    }
    case "fulltext.verified":
      return afterVerify(s, a, takeBack, appReducer);
    case "lifecycle.restored": {
      // A restore from the trash view: the view is read again (the log says what is left).
      const n = lifecycleReducer(s, a);
      const l = trashLayer(n);
      return l && n.storeDir && a.paths.length > 0 ? withEffect(n, { type: "trash.list", storeDir: n.storeDir }) : n;
    }
    default:
      return lifecycleReducer(s, a);
  }
}

/** The hit of the selected row taken back: its file turned it down as it is now. */
function takeBack(s: AppState, path: string): AppState {
  const now = s.sessions.get(path);
  const seen = { path, bytes: now?.bytes ?? -1, mtimeMs: now?.mtimeMs ?? -1 };
  const drop = { type: "fulltext.hits" as const, key: s.fullText.key ?? "", hits: [], drop: [seen] };
  const ft = reduceFullText(s.fullText, drop, s.selectedPath, (p) => s.sessions.get(p));
  const next = { ...s, fullText: ft };
  return hitsShownChanged(s.fullText, ft, s.query, s.scope) ? refresh(next) : next;
}

/** The status line's word on keys typed on a first screen whose rows were not the list's. */
export function droppedKeysNote(count: number): string {
  return `the list changed as it loaded: ${count === 1 ? "1 key typed before it was" : `${count} keys typed before it were`} not applied`;
}

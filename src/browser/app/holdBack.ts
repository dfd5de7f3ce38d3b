import type { CommandId } from "../keys/commands.js";
import { commandFor } from "../keys/keymap.js";
import { fullTextKey, isUnchecked, NO_LONGER_MATCHES } from "../list/fullText.js";
import { bodyNeed } from "../list/derive.js";
import { textTerms } from "../../search/fulltext.js";
import { say } from "../core/status.js";
import type { HeldAction, VerifiedAction, VerifyEffect } from "./verifyTypes.js";
import { type AppState, modeOf, type Next, selectedSession, topLayer } from "./appState.js";
import { isDoubleClick, type MouseAction } from "./mouseReducer.js";
import { isMenuAction, isMenuListKey } from "../keys/menuActions.js";

/*
 * An action on a row the early answer listed as the index names it (FullTextState.unchecked)
 * waits for its file: `update` hands the runner a verify effect carrying the action, the
 * runner reads that one file at once (~1 ms) and dispatches fulltext.verified, which replays
 * the action, or takes the hit back and does nothing (the row says it no longer matches).
 * Effects run before the next action is handled (useUpdateLoop), so keys keep their order.
 */

/** Commands on the list (and its search bar) that act on the selected session. */
const ON_ROW: ReadonlySet<CommandId> = new Set<CommandId>([
  "session.resume",
  "session.rename",
  "session.mark",
  "session.delete",
  "session.deletePermanently",
  "session.new",
  "tree.open",
  "reader.open",
  "export.open",
  "copy.message",
  "copy.path",
  "copy.id",
  "copy.command",
  "menu.open",
]);

/** Whether a command acts on one session: the selected row's, or the one the menu was opened for. */
export function actsOnRow(c: CommandId): boolean {
  return ON_ROW.has(c);
}

/** An action that can act on a session: a key, a command, a menu's choice, a click. */
function isHeldAction(a: { type: string }): a is HeldAction {
  return a.type === "key" || a.type === "command" || a.type === "choose" || a.type === "mouse";
}

/** The verify effect `a` waits for, or null when it acts at once. */
export function holdBack(s: AppState, a: { type: string }): VerifyEffect | null {
  if (s.fullText.unchecked.size === 0 || s.fullText.key === null) return null;
  if (!isHeldAction(a)) return null;
  const held = a;
  const path = heldPath(s, held);
  if (path === null || !isUnchecked(s.fullText, path, s.query, s.scope)) return null;
  return {
    type: "fulltext.verify",
    key: s.fullText.key,
    path,
    terms: textTerms(s.query),
    includeTools: s.fullText.includeTools,
    need: bodyNeed(s.sessions, s.query)(path),
    action: held,
  };
}

/** What an action on a session whose hit its file turned down is answered. */
const DECLINED_NOTE = `not done: this session ${NO_LONGER_MATCHES.slice(1, -1)}`;

/**
 * An action holdBack would hold, on the row whose hit its file just turned down (kept listed
 * until the cursor leaves it, FullTextState.declined): refused with a note, nothing done,
 * or null when `a` is not one. It is no longer unchecked, so holdBack alone would let it run.
 */
export function refuseDeclined(s: AppState, a: { type: string }): AppState | null {
  const ft = s.fullText;
  if (ft.declined === null || fullTextKey(s.query, s.scope, ft.includeTools) !== ft.key) return null;
  if (!isHeldAction(a) || heldPath(s, a) !== ft.declined) return null;
  // A refused click ends a double click, as a click turned down by its file does.
  return say({ ...s, lastClick: undefined }, DECLINED_NOTE, "note");
}

/**
 * The listed session an action would act on, or null when it acts on none: the selected
 * row's (list, search bar, the picker's Enter), the menu's own (it acts on the session it
 * was opened for), a double click's.
 */
function heldPath(s: AppState, a: HeldAction): string | null {
  if (!s.visible) return null;
  if (a.type === "mouse") return doubleClicked(s, a);
  const mode = modeOf(s);
  if (mode === "menu") return menuPath(s, a);
  if (mode !== "list" && mode !== "search") return null;
  if (a.type === "choose") return null;
  const c = a.type === "key" ? commandFor(s.keymap, mode, a.input, a.key) : a.command;
  if (!c) return null;
  // The picker's Enter picks the selected session (runCommand's search.submit).
  const acts = c === "search.submit" ? s.print : ON_ROW.has(c);
  const path = acts ? (selectedSession(s)?.path ?? null) : null;
  return path !== null && alwaysSafe(s, c, path) ? null : path;
}

/** Deletes that act on the marks when there are any (openDelete), not on the row. */
const ON_MARKS: ReadonlySet<CommandId> = new Set<CommandId>(["session.delete", "session.deletePermanently"]);

/**
 * Whether command `c`, though it acts on rows, needs nothing of `path`'s file: unmarking it
 * (a refused unmark left it marked, maybe hidden, for a later bulk delete), or a delete with
 * marks set (it deletes the marks).
 */
function alwaysSafe(s: AppState, c: CommandId, path: string): boolean {
  if (c === "session.mark") return s.marks.has(path);
  return ON_MARKS.has(c) && s.marks.size > 0;
}

/** The menu's session when `a` runs one of its actions on it (appReducer's menuKey and choose). */
function menuPath(s: AppState, a: HeldAction): string | null {
  const top = topLayer(s);
  if (top?.kind !== "menu" || top.screen !== "list" || a.type === "mouse") return null;
  let c: CommandId | null | undefined;
  if (a.type === "choose") c = a.command;
  else if (a.type === "command") c = null;
  // The menu's own keys (close), and the keys its list takes (which choose), act on no session.
  else if (commandFor(s.keymap, "menu", a.input, a.key) || isMenuListKey(a.input, a.key)) c = null;
  else c = commandFor(s.keymap, top.screen, a.input, a.key);
  return c && isMenuAction(top.screen, c) && ON_ROW.has(c) && !alwaysSafe(s, c, top.path) ? top.path : null;
}

/** The session a click resumes as the second of a double click on the same session's row of the list (mouseReducer), or null. */
function doubleClicked(s: AppState, a: MouseAction): string | null {
  if (modeOf(s) !== "list" || a.kind !== "click" || a.pane !== "list" || a.row === undefined) return null;
  const last = s.lastClick;
  const path = s.rows[a.row]?.session.path;
  return last && path !== undefined && isDoubleClick(last, path, a.at) ? path : null;
}

/**
 * The file's verdict: the action replayed (`replay`) on the row it was typed on, or the hit
 * taken back (the row kept, saying so, until the cursor leaves) and nothing done.
 */
export function afterVerify(
  s: AppState,
  a: VerifiedAction,
  takeBack: (s: AppState, path: string) => AppState,
  replay: (s: AppState, a: HeldAction) => Next,
): Next {
  if (a.key !== s.fullText.key || heldPath(s, a.action) !== a.path)
    return say(s, "not done: the list changed before the session was checked against its file", "note");
  // No verdict: still to check, and the action is not done (nor taken for a "no").
  if (a.large !== undefined) {
    const mb = Math.round(a.large / (1024 * 1024));
    return say(
      { ...s, lastClick: undefined },
      `not done: a large session (${mb} MB): press again once the search has checked it`,
      "note",
    );
  }
  if (a.unread !== undefined)
    return say({ ...s, lastClick: undefined }, `not done: the session's file could not be read (${a.unread})`, "note");
  const unchecked = new Set(s.fullText.unchecked);
  unchecked.delete(a.path);
  const checked = { ...s, fullText: { ...s.fullText, unchecked } };
  // A held double click is replayed as it came (mouseReducer ends it).
  if (a.holds) return replay(checked, a.action);
  // A click turned down ends a double click: a third one starts another.
  const declined = { ...checked, lastClick: undefined };
  return say(takeBack(declined, a.path), DECLINED_NOTE, "note");
}

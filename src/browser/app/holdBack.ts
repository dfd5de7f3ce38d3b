import type { CommandId } from "../keys/commands.js";
import { commandFor } from "../keys/keymap.js";
import { isUnchecked, NO_LONGER_MATCHES } from "../list/fullText.js";
import { bodyNeed } from "../list/derive.js";
import { textTerms } from "../../search/fulltext.js";
import { say } from "../core/status.js";
import type { HeldAction, VerifiedAction, VerifyEffect } from "./verifyTypes.js";
import { type AppState, modeOf, type Next, selectedSession } from "./appState.js";
import { DOUBLE_CLICK_MS, type MouseAction } from "./mouseReducer.js";

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

export type { HeldAction, VerifiedAction, VerifyEffect } from "./verifyTypes.js";

/** The command a key or command action runs on the list, when it acts on the selected row. */
function rowCommand(s: AppState, a: HeldAction): CommandId | null {
  if (!s.visible) return null;
  const mode = modeOf(s);
  if (mode !== "list" && mode !== "search") return null;
  const c = a.type === "key" ? commandFor(s.keymap, mode, a.input, a.key) : a.command;
  if (!c) return null;
  // The picker's Enter picks the selected session (runCommand's search.submit).
  if (c === "search.submit") return s.print ? "session.resume" : null;
  return ON_ROW.has(c) ? c : null;
}

/** The verify effect `a` waits for, or null when it acts at once. */
export function holdBack(s: AppState, a: { type: string }): VerifyEffect | null {
  if (s.fullText.unchecked.size === 0 || s.fullText.key === null) return null;
  const sel = selectedSession(s);
  if (!sel || !isUnchecked(s.fullText, sel.path, s.query, s.scope)) return null;
  let held: HeldAction;
  if (a.type === "mouse") {
    // A double click on the selected row resumes it (mouseReducer): held as that command.
    if (!resumesSelected(s, a as MouseAction, sel.path)) return null;
    held = { type: "command", command: "session.resume" };
  } else if (a.type === "key" || a.type === "command") {
    held = a as HeldAction;
    if (!rowCommand(s, held)) return null;
  } else return null;
  return {
    type: "fulltext.verify",
    key: s.fullText.key,
    path: sel.path,
    terms: textTerms(s.query),
    includeTools: s.fullText.includeTools,
    need: bodyNeed(s.sessions, s.query)(sel.path),
    action: held,
  };
}

/** Whether a click is the second of a double click on the selected row of the list (mouseReducer's resume). */
function resumesSelected(s: AppState, a: MouseAction, path: string): boolean {
  if (!s.visible || modeOf(s) !== "list" || a.kind !== "click" || a.pane !== "list" || a.row === undefined)
    return false;
  const last = s.lastClick;
  return !!last && last.row === a.row && a.at - last.at <= DOUBLE_CLICK_MS && s.rows[a.row]?.session.path === path;
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
  const sel = selectedSession(s);
  if (a.key !== s.fullText.key || sel?.path !== a.path)
    return say(s, "not done: the list changed before the session was checked against its file", "note");
  const unchecked = new Set(s.fullText.unchecked);
  unchecked.delete(a.path);
  // The click that was held ends a double click: a third one starts another.
  const checked = { ...s, fullText: { ...s.fullText, unchecked }, lastClick: undefined };
  if (a.holds) return replay(checked, a.action);
  return say(takeBack(checked, a.path), `not done: this session ${NO_LONGER_MATCHES.slice(1, -1)}`, "note");
}

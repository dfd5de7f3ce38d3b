import { moveTo } from "../list/list.js";
import type { AppState } from "./appState.js";

/** Actions that are the user's: after one, where the cursor is is theirs to say. */
const BY_USER: ReadonlySet<string> = new Set(["key", "paste", "command", "choose", "mouse"]);

/**
 * The cursor put on `s.reselect` as soon as that session is listed. Back from pi, the
 * session just resumed is selected again, but the new scan lists it whenever it gets to it
 * (and a search's full-text hits come later still); until then the list keeps its usual
 * top-row selection. Anything the user does first drops the wish, so the cursor never jumps
 * from under them.
 */
export function reselect(s: AppState, actionType?: string): AppState {
  if (s.reselect === undefined) return s;
  if (actionType !== undefined && BY_USER.has(actionType)) return { ...s, reselect: undefined };
  const at = s.rows.findIndex((r) => r.session.path === s.reselect);
  return at < 0 ? s : { ...moveTo(s, at), reselect: undefined };
}

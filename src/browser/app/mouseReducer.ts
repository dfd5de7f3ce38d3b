import { moveTo as moveTreeTo } from "../tree/treeState.js";
import type { CommandId } from "../keys/commands.js";
import { scrollWindow, cursorToRow } from "../reader/readerState.js";
import { type AppState, modeOf, moveTo, type Next } from "./appState.js";
import { andThen } from "../core/next.js";
import type { MouseAction } from "./mouseTypes.js";

/*
 * The mouse as actions, never keys: the wheel scrolls the pane under the pointer, a click
 * selects a list row (or puts the reader's cursor on a line), a second click on the same
 * row within DOUBLE_CLICK_MS resumes it. The time comes with the action: the reducer stays pure.
 */

export type { MouseAction, MousePane } from "./mouseTypes.js";

export const WHEEL_LINES = 3;
export const DOUBLE_CLICK_MS = 400;

export function mouseReducer(s: AppState, a: MouseAction, run: (s: AppState, c: CommandId) => Next): Next {
  const mode = modeOf(s);
  if (a.kind === "wheel") {
    const dir = a.dir ?? 1;
    switch (mode) {
      case "reader":
        return s.reader ? { ...s, reader: scrollWindow(s.reader, dir * WHEEL_LINES) } : s;
      case "tree":
        if (a.pane === "preview") return run(s, dir > 0 ? "tree.previewDown" : "tree.previewUp");
        if (a.pane !== "list") return s;
        return repeat(s, (x) => run(x, dir > 0 ? "tree.down" : "tree.up"));
      case "help":
        return { ...s, helpTop: Math.max(0, s.helpTop + dir * WHEEL_LINES) };
      case "usage":
        return repeat(s, (x) => run(x, dir > 0 ? "usage.down" : "usage.up"));
      case "list":
        if (a.pane === "preview") return run(s, dir > 0 ? "list.previewDown" : "list.previewUp");
        return a.pane === "list" ? moveTo(s, s.cursor + dir * WHEEL_LINES) : s;
      default:
        return s;
    }
  }
  if (mode === "reader" && a.pane === "reader" && a.row !== undefined && s.reader)
    return { ...s, reader: cursorToRow(s.reader, a.row) };
  if (mode === "tree" && a.pane === "list" && a.row !== undefined && s.tree) {
    // As in the list: a click selects the entry, a second click on it resumes there.
    const t = moveTreeTo(s.tree, a.row);
    const last = s.lastClick;
    const at = t === s.tree ? s : { ...s, tree: t };
    if (last && last.row === a.row && a.at - last.at <= DOUBLE_CLICK_MS)
      return run({ ...at, lastClick: undefined }, "tree.resume");
    return { ...at, lastClick: { row: a.row, at: a.at } };
  }
  if (mode !== "list" || a.pane !== "list" || a.row === undefined) return s;
  const path = s.rows[a.row]?.session.path;
  if (path === undefined) return s;
  // The session clicked, not the row: the list may have re-sorted between the two clicks.
  const last = s.lastClick;
  if (last && isDoubleClick(last, path, a.at))
    return run({ ...moveTo(s, a.row), lastClick: undefined }, "session.resume");
  return { ...moveTo(s, a.row), lastClick: { row: a.row, at: a.at, path } };
}

/** Whether a click on the list row of `path` at `at` is the second of a double click: the same session, soon enough. */
export function isDoubleClick(last: NonNullable<AppState["lastClick"]>, path: string, at: number): boolean {
  return last.path === path && at - last.at <= DOUBLE_CLICK_MS;
}

/** One wheel notch: WHEEL_LINES steps. */
function repeat(s: AppState, step: (s: AppState) => Next): Next {
  let n: Next = s;
  for (let i = 0; i < WHEEL_LINES; i++) n = andThen(n, step);
  return n;
}

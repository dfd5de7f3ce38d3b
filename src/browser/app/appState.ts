import type { Diagnostic } from "../../model/types.js";
import type { Mode } from "../keys/commands.js";
import type { Keymap } from "../keys/keymap.js";
import { type TreeState, treeModeOf } from "../tree/treeState.js";
import type { ReaderState } from "../reader/readerState.js";
import { type Layer, type Layered, topLayer } from "../core/layers.js";
import { type LifecycleState, lifecycleMode } from "../lifecycle/lifecycleTypes.js";
import type { ListState } from "../list/list.js";
import type { WithStatus } from "../core/status.js";
import type { Effect } from "./effects.js";
import type { Next as NextOf, Step as StepOf } from "../core/next.js";
import type { TextInput } from "../core/textInput.js";

/*
 * The browser's state: the list's, each slice's and the app's own, composed. Slices never
 * import it: each declares what it reads (its host) and the app's state is every one of them.
 */

export type { Layer } from "../core/layers.js";

/** What the app's reducers give: the state, or the state and the effects it asks for. */
export type Next = NextOf<AppState, Effect>;
export type Step = StepOf<AppState, Effect>;
export { pop, topLayer } from "../core/layers.js";
export { moveTo, refresh, selectedSession } from "../list/list.js";

export interface ScanProgress {
  /** Candidate files found; null until discovery reports. */
  discovered: number | null;
  probed: number;
  scanned: number;
  diagnostics: number;
  /** The files behind that count, and why each was skipped (the skipped view, `!`). */
  skipped: readonly Diagnostic[];
  done: boolean;
  error?: string;
  /** The index's text being brought up to date after the scan: files done of total in a pass (absent when not). */
  indexing?: { pass: "text" | "tools"; done: number; total: number };
}

export interface AppState extends ListState, LifecycleState, Layered, WithStatus {
  keymap: Keymap;
  print: boolean;
  /** The pi command (--pi-command, $PI_SESSIONS_PI, "piCommand"), word by word; pi when absent. */
  piCommand?: readonly string[];
  /** The session open in the launching pi, if any: marked and protected from deletion. */
  openInPi?: string;
  /** False while the terminal is too small to show the UI. */
  visible: boolean;
  /** Set once the user (or --all) picked a scope, or the automatic choice was made. */
  scopeSettled: boolean;
  search: TextInput;
  stack: readonly Layer[];
  /** The branch tree of one session, while the { kind: "tree" } layer is open. */
  tree: TreeState | null;
  /** The transcript reader, while the { kind: "reader" } layer is open. */
  reader: ReaderState | null;
  /** The last click on a list row, for a double-click (mouse): on the list, the session clicked (rows may re-sort between clicks). */
  lastClick?: { row: number; at: number; path?: string };
  helpTop: number;
  /** pi's Ctrl+P: each row shows its session's file path. */
  showPaths: boolean;
  /** The preview's share of the body: 0 hides it (P), + and - step it. */
  previewShare: number;
  /** The session preview scrolled by `offset` lines (negative: up) for the session at `path`; 0 elsewhere. */
  preview: { path: string | null; offset: number };
  /** How far the shown preview can scroll (reported by the pane, which knows its lines). */
  previewBounds: { path: string | null; min: number; max: number };
  scan: ScanProgress;
  /** A session to select once it is listed (the one resumed, back from pi): see reselect.ts. */
  reselect?: string;
}

export function modeOf(s: AppState): Mode {
  const top = topLayer(s);
  if (!top) return "list";
  if (top.kind === "tree") return s.tree ? treeModeOf(s.tree) : "tree";
  if (top.kind === "reader") return s.reader?.input ? "readerSearch" : "reader";
  if (top.kind === "export") return "export";
  if (top.kind === "help") return top.typing ? "helpFilter" : "help";
  if (top.kind === "trash")
    return !top.purge ? "trash" : top.purge.step === 2 ? "trashConfirmPermanent" : "trashConfirm";
  if (top.kind === "rename" || top.kind === "delete") return lifecycleMode(top);
  return top.kind;
}

import type { Mode } from "../keys/commands.js";
import type { Keymap } from "../keys/keymap.js";
import type { Query } from "../../src/search/query.js";
import type { SortKey } from "../../src/search/sort.js";
import { type TreeState, treeModeOf } from "../tree/treeState.js";
import type { ReaderState } from "../reader/readerState.js";
import { deriveRows, type ListRow, type Scope } from "./derive.js";
import { activeHits, type FullTextState } from "./fullText.js";
import { type LifecycleLayer, type LifecycleState, lifecycleMode } from "./lifecycleTypes.js";
import type { ListedSession, SessionMap } from "./sessions.js";
import type { TextInput } from "./textInput.js";
import type { UsageLayer } from "../usage/usageState.js";

/*
 * The browser's state and the helpers every reducer shares (the list reducer, the
 * lifecycle and the tree): a leaf below all three, so none of them imports another.
 */

/** Overlays and input modes, innermost last. The list is the implicit bottom. */
export type Layer =
  | { kind: "search" }
  | { kind: "help" }
  | { kind: "cwdMissing"; path: string; cwd: string }
  | { kind: "menu"; path: string }
  | LifecycleLayer
  | { kind: "tree" }
  /** The transcript reader, over the list or the tree (AppState.reader). */
  | { kind: "reader" }
  /** The export choices for a session; `leafId`: the branch the reader shows (else the active one). */
  | { kind: "export"; path: string; title: string; leafId?: string }
  /** Usage at a glance (`U`): its grouping, metric and scroll (components/usage). */
  | UsageLayer;

export interface ScanProgress {
  /** Candidate files found; null until discovery reports. */
  discovered: number | null;
  probed: number;
  scanned: number;
  diagnostics: number;
  done: boolean;
  error?: string;
}

export interface AppState extends LifecycleState {
  keymap: Keymap;
  launchCwd: string;
  /** The store's folder: which sessions are "this folder's" depends on where they lie in it. */
  storeDir?: string;
  print: boolean;
  sessions: SessionMap;
  rows: ListRow[];
  scopeTotal: number;
  /** The session open in the launching pi, if any: marked and protected from deletion. */
  openInPi?: string;
  /** The selection is anchored by path so it survives new rows, re-sorts and filtering. */
  selectedPath: string | null;
  /**
   * False until the user moves or something selects a session on purpose: until then the
   * selection stays on the top row, so early rows re-sorting under it can't carry it away.
   */
  userSelected: boolean;
  cursor: number;
  pageSize: number;
  /** False while the terminal is too small to show the UI. */
  visible: boolean;
  scope: Scope;
  /** Set once the user (or --all) picked a scope, or the automatic choice was made. */
  scopeSettled: boolean;
  sort: SortKey;
  search: TextInput;
  query: Query;
  /** Background full-text search over the session files (see fullText.ts). */
  fullText: FullTextState;
  stack: Layer[];
  /** The branch tree of one session, while the { kind: "tree" } layer is open. */
  tree: TreeState | null;
  /** The transcript reader, while the { kind: "reader" } layer is open. */
  reader: ReaderState | null;
  /** The last click on a list row, for a double-click (mouse). */
  lastClick?: { row: number; at: number };
  helpTop: number;
  /** The session preview scrolled by `offset` lines (negative: up) for the session at `path`; 0 elsewhere. */
  preview: { path: string | null; offset: number };
  /** How far the shown preview can scroll (reported by the pane, which knows its lines). */
  previewBounds: { path: string | null; min: number; max: number };
  scan: ScanProgress;
}

export function topLayer(s: AppState): Layer | undefined {
  return s.stack[s.stack.length - 1];
}

export function modeOf(s: AppState): Mode {
  const top = topLayer(s);
  if (!top) return "list";
  if (top.kind === "tree") return s.tree ? treeModeOf(s.tree) : "tree";
  if (top.kind === "reader") return s.reader?.input ? "readerSearch" : "reader";
  if (top.kind === "export") return "export";
  if (top.kind === "rename" || top.kind === "delete") return lifecycleMode(top);
  return top.kind === "cwdMissing" ? "dialog" : top.kind === "menu" ? "menu" : top.kind;
}

export function selectedSession(s: AppState): ListedSession | undefined {
  return s.rows[s.cursor]?.session;
}

// ---- derived rows and the anchored selection ----

/** Recompute rows after sessions, scope, sort or query changed; keep the selection on its session. */
export function refresh(s: AppState): AppState {
  const fullText = activeHits(s.fullText, s.query, s.scope);
  const { rows, scopeTotal } = deriveRows(s.sessions, { scope: s.scope, cwd: s.launchCwd, storeDir: s.storeDir, query: s.query, sort: s.sort, fullText });
  let cursor = 0;
  let selectedPath = s.userSelected ? s.selectedPath : (rows[0]?.session.path ?? null);
  const at = selectedPath === null ? -1 : rows.findIndex((r) => r.session.path === selectedPath);
  if (at >= 0) cursor = at;
  else if (rows.length > 0) {
    // The session left the view: stay at the same height in the list.
    cursor = Math.min(s.cursor, rows.length - 1);
    selectedPath = rows[cursor].session.path;
  }
  return { ...s, rows, scopeTotal, cursor, selectedPath };
}

export function moveTo(s: AppState, index: number): AppState {
  if (s.rows.length === 0) return s;
  const cursor = Math.max(0, Math.min(s.rows.length - 1, index));
  if (cursor === s.cursor && s.selectedPath === s.rows[cursor].session.path && s.userSelected) return s;
  return { ...s, cursor, selectedPath: s.rows[cursor].session.path, userSelected: true };
}

export function pop(s: AppState): AppState {
  return { ...s, stack: s.stack.slice(0, -1) };
}


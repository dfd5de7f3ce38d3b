import type { Query } from "../../search/query.js";
import type { SortKey } from "../../search/sort.js";
import { deriveRows, type ListRow, type Scope } from "./derive.js";
import { activeHits, type FullTextState } from "./fullText.js";
import type { ListedSession, SessionMap } from "./sessions.js";
import type { HostView } from "./hosts.js";

/*
 * The session list's state and its moves: what every slice that selects, adds or removes
 * sessions reads. Below the app and the slices; it knows none of them.
 */

export interface ListState {
  launchCwd: string;
  /** The store's folder: which sessions are "this folder's" depends on where they lie in it. */
  storeDir?: string;
  sessions: SessionMap;
  rows: ListRow[];
  /**
   * The rows are of an earlier query: keys typed together are derived once, at the last of
   * them (appReducer's update derives them before any other action).
   */
  rowsPutOff?: boolean;
  scopeTotal: number;
  /** The selection is anchored by path so it survives new rows, re-sorts and filtering. */
  selectedPath: string | null;
  /**
   * False until the user moves or something selects a session on purpose: until then the
   * selection stays on the top row, so early rows re-sorting under it can't carry it away.
   */
  userSelected: boolean;
  cursor: number;
  pageSize: number;
  scope: Scope;
  sort: SortKey;
  query: Query;
  /** pi's Ctrl+N: only sessions with a name are listed. */
  namedOnly?: boolean;
  /** Background full-text search over the session files (see fullText.ts). */
  fullText: FullTextState;
  /** Other machines whose sessions are listed too (src/remote), in order; none when absent. */
  hosts?: readonly HostView[];
}

export function selectedSession(s: ListState): ListedSession | undefined {
  return s.rows[s.cursor]?.session;
}

/** Recompute rows after sessions, scope, sort or query changed; keep the selection on its session. */
export function refresh<S extends ListState>(s: S): S {
  const fullText = activeHits(s.fullText, s.query, s.scope);
  const { rows, scopeTotal } = deriveRows(s.sessions, {
    scope: s.scope,
    cwd: s.launchCwd,
    storeDir: s.storeDir,
    query: s.query,
    sort: s.sort,
    fullText,
    namedOnly: s.namedOnly,
    hosts: s.hosts?.map((h) => h.name),
  });
  let cursor = 0;
  let selectedPath = s.userSelected ? s.selectedPath : (rows[0]?.session.path ?? null);
  const at = selectedPath === null ? -1 : rows.findIndex((r) => r.session.path === selectedPath);
  if (at >= 0) cursor = at;
  else if (rows.length > 0) {
    // The session left the view: stay at the same height in the list.
    cursor = Math.min(s.cursor, rows.length - 1);
    selectedPath = rows[cursor].session.path;
  }
  const next = { ...s, rows, scopeTotal, cursor, selectedPath };
  if (next.rowsPutOff) delete next.rowsPutOff;
  return next;
}

export function moveTo<S extends ListState>(s: S, index: number): S {
  if (s.rows.length === 0) return s;
  const cursor = Math.max(0, Math.min(s.rows.length - 1, index));
  if (cursor === s.cursor && s.selectedPath === s.rows[cursor].session.path && s.userSelected) return s;
  return { ...s, cursor, selectedPath: s.rows[cursor].session.path, userSelected: true };
}

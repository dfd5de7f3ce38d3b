import type { AppState } from "../../src/browser/app/appState.js";
import { computeLayout } from "../layout/layout.js";

/** The list rows a screen of this size shows first (top to bottom, by path), and the cursor's row. */
export interface ShownRows {
  paths: string[];
  cursor: number;
}

/** What the first screen (preframe.ts) and Ink's first frame show of `s`'s list: its first rows, from the top. */
export function shownRows(s: AppState, size: { columns: number; rows: number }): ShownRows | undefined {
  const layout = computeLayout({ columns: size.columns, rows: size.rows, previewShare: s.previewShare });
  if (layout.tooSmall) return undefined;
  // The list's frame takes its borders and the column header.
  const n = Math.min(Math.max(0, layout.list.height - 3), s.rows.length);
  return { paths: s.rows.slice(0, n).map((r) => r.session.path), cursor: s.cursor };
}

/** The same rows in the same order, the cursor on the same one: a key means the same on both. */
export function sameShownRows(a: ShownRows | undefined, b: ShownRows | undefined): boolean {
  if (!a || !b || a.cursor !== b.cursor || a.paths.length !== b.paths.length) return false;
  return a.paths.every((p, i) => p === b.paths[i]);
}

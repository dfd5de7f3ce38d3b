import type { Layout } from "../layout/layout.js";
import type { MousePane } from "../../src/browser/app/mouseReducer.js";

export type { MousePane };

/** Where a pointer is, as the reducer needs it: a pane, and a list row or a reader line. */
export interface Hit {
  pane: MousePane;
  /** list: the row index under the pointer; reader: the window's line. */
  row?: number;
}

export interface HitContext {
  screen: "list" | "tree" | "reader";
  layout: Layout;
  /** The list's first shown row, and how tall each row is (a snippet row takes two lines). */
  listTop: number;
  rowCount: number;
  rowHeight(i: number): number;
}

const inside = (x: number, y: number, left: number, top: number, w: number, h: number) =>
  x >= left && x < left + w && y >= top && y < top + h;

/** The pane (and row) at cell (x, y), 0-based, on the screen as App lays it out. */
export function hitTest(x: number, y: number, c: HitContext): Hit {
  const L = c.layout;
  if (c.screen === "reader") {
    // Header, then the framed pane: its text starts under the top border.
    const row = y - L.header - 1;
    return row >= 0 && row < L.height - L.header - L.status - L.footer - 2
      ? { pane: "reader", row }
      : { pane: "reader" };
  }
  const bodyTop = L.header + L.search;
  const list = L.list;
  const pv = L.preview;
  if (inside(x, y, 0, bodyTop, list.width, list.height)) {
    if (c.screen === "tree") {
      // Under the border; one line a row.
      const at = y - bodyTop - 1;
      if (at < 0 || at >= list.height - 2 || x === 0 || x === list.width - 1) return { pane: "list" };
      const row = c.listTop + at;
      return row < c.rowCount ? { pane: "list", row } : { pane: "list" };
    }
    // Under the border and the column headings.
    let at = y - bodyTop - 2;
    const rowsH = list.height - 3;
    if (at < 0 || at >= rowsH || x === 0 || x === list.width - 1) return { pane: "list" };
    for (let i = c.listTop; i < c.rowCount; i++) {
      const h = c.rowHeight(i);
      if (at < h) return { pane: "list", row: i };
      at -= h;
    }
    return { pane: "list" };
  }
  const pvLeft = pv.position === "right" ? list.width : 0;
  const pvTop = pv.position === "right" ? bodyTop : bodyTop + list.height;
  if (inside(x, y, pvLeft, pvTop, pv.width, pv.height)) return { pane: "preview" };
  return { pane: "other" };
}

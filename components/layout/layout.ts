import { DEFAULT_PREVIEW_SHARE } from "../../src/browser/core/previewShare.js";

/*
 * Pure screen arithmetic. The UI fills every row (Ink 8 draws a full-height frame in
 * place), and the parts must add up exactly or yoga squashes rows on top of each other.
 * From the top: header, search bar (when open), body (the list and preview panes, each
 * with a rounded border that carries its title), status line, footer.
 */

export const MIN_COLUMNS = 60;
export const MIN_ROWS = 15;
/** From this width on the preview sits beside the list. */
export const SIDE_BY_SIDE_COLUMNS = 110;

export interface PaneBox {
  width: number;
  height: number;
}

/** A bordered pane: its outer box and what is inside the border. */
export interface Pane extends PaneBox {
  inner: PaneBox;
}

export interface Layout {
  tooSmall: boolean;
  columns: number;
  /** Height of the whole UI: every row. */
  height: number;
  header: number;
  search: number;
  status: number;
  footer: number;
  /** Rows between header (+ search bar) and status line. */
  body: number;
  list: Pane;
  preview: Pane & { position: "right" | "below" };
}

/** The border takes a column each side and the top and bottom rows. */
function pane(width: number, height: number): Pane {
  return { width, height, inner: { width: Math.max(0, width - 2), height: Math.max(0, height - 2) } };
}

/** The preview's text keeps a space from its left border (LinesPane pads it). */
function previewPane(width: number, height: number, position: "right" | "below"): Layout["preview"] {
  const p = pane(width, height);
  return { ...p, inner: { ...p.inner, width: Math.max(0, p.inner.width - 1) }, position };
}

export function computeLayout({
  columns,
  rows,
  searchBar = false,
  previewShare = DEFAULT_PREVIEW_SHARE,
}: {
  columns: number;
  rows: number;
  searchBar?: boolean;
  /** The preview's part of the body (0: hidden, the list takes it all). */
  previewShare?: number;
}): Layout {
  const height = Math.max(0, rows);
  const tooSmall = columns < MIN_COLUMNS || rows < MIN_ROWS;
  const header = 1;
  const status = 1;
  const footer = 1;
  const search = searchBar ? 1 : 0;
  const body = Math.max(0, height - header - search - status - footer);
  const base = { tooSmall, columns, height, header, search, status, footer, body };
  if (previewShare <= 0)
    return {
      ...base,
      list: pane(columns, body),
      preview: previewPane(0, 0, columns >= SIDE_BY_SIDE_COLUMNS ? "right" : "below"),
    };
  if (columns >= SIDE_BY_SIDE_COLUMNS) {
    const listWidth = Math.floor(columns * (1 - previewShare));
    return { ...base, list: pane(listWidth, body), preview: previewPane(columns - listWidth, body, "right") };
  }
  const listHeight = Math.ceil(body * (1 - previewShare));
  return { ...base, list: pane(columns, listHeight), preview: previewPane(columns, body - listHeight, "below") };
}

export interface Window {
  top: number;
  /** Exclusive. */
  end: number;
}

/**
 * Which rows to render: keeps `scrollOff` rows of context around the cursor and
 * otherwise leaves the window where it was (prevTop), so the list does not jump.
 */
export function visibleWindow(total: number, cursor: number, height: number, prevTop: number, scrollOff = 2): Window {
  if (height <= 0 || total <= 0) return { top: 0, end: 0 };
  const so = Math.max(0, Math.min(scrollOff, Math.floor((height - 1) / 2)));
  const c = Math.max(0, Math.min(total - 1, cursor));
  let top = prevTop;
  if (c < top + so) top = c - so;
  if (c > top + height - 1 - so) top = c - height + 1 + so;
  top = Math.max(0, Math.min(top, Math.max(0, total - height)));
  return { top, end: Math.min(total, top + height) };
}

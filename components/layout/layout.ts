/*
 * Pure screen arithmetic. The root is rows-1 tall: in ink 6.8 a frame as tall as the
 * terminal clears the screen on every render (ink-notes §8), and the parts below
 * must add up exactly or yoga squashes rows on top of each other.
 */

export const MIN_COLUMNS = 60;
export const MIN_ROWS = 15;
/** From this width on the preview sits beside the list. */
export const SIDE_BY_SIDE_COLUMNS = 110;

export interface PaneBox {
  width: number;
  height: number;
}

export interface Layout {
  tooSmall: boolean;
  columns: number;
  /** Height of the whole UI: rows - 1. */
  height: number;
  header: number;
  search: number;
  footer: number;
  /** Rows between header (+ search bar) and footer. */
  body: number;
  list: PaneBox;
  preview: PaneBox & { position: "right" | "below"; inner: PaneBox };
}

export function computeLayout({ columns, rows, searchBar = false }: { columns: number; rows: number; searchBar?: boolean }): Layout {
  const height = Math.max(0, rows - 1);
  const tooSmall = columns < MIN_COLUMNS || rows < MIN_ROWS;
  const header = 1;
  const footer = 1;
  const search = searchBar ? 1 : 0;
  const body = Math.max(0, height - header - footer - search);
  if (columns >= SIDE_BY_SIDE_COLUMNS) {
    const listWidth = Math.floor(columns * 0.55);
    const pw = columns - listWidth;
    // A left border and one space of padding.
    return {
      tooSmall, columns, height, header, search, footer, body,
      list: { width: listWidth, height: body },
      preview: { position: "right", width: pw, height: body, inner: { width: Math.max(0, pw - 2), height: body } },
    };
  }
  const listHeight = Math.ceil(body * 0.55);
  const ph = body - listHeight;
  // A top border line.
  return {
    tooSmall, columns, height, header, search, footer, body,
    list: { width: columns, height: listHeight },
    preview: { position: "below", width: columns, height: ph, inner: { width: columns, height: Math.max(0, ph - 1) } },
  };
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

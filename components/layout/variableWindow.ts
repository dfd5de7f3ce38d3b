import type { Window } from "./layout.js";

/*
 * visibleWindow for rows of different heights (a full-text hit takes two lines: the
 * row and its snippet). Pure; with every height 1 it gives exactly visibleWindow's
 * answer. Work is proportional to the window, not the list.
 */

/** Screen lines rows [from, to] take (inclusive), stopping once past `cap`. */
function linesOf(heightOf: (i: number) => number, from: number, to: number, cap: number): number {
  let sum = 0;
  for (let i = from; i <= to && sum <= cap; i++) sum += heightOf(i);
  return sum;
}

/**
 * Which rows to render in `height` lines: the cursor row whole, `scrollOff` rows of
 * context around it when they fit, the window otherwise left where it was (prevTop),
 * and no empty lines at the bottom while there are rows above. `end` is exclusive and
 * only rows that fit whole are in [top, end) (the cursor row always is).
 */
export function visibleWindowVar(
  heightOf: (i: number) => number,
  total: number,
  cursor: number,
  height: number,
  prevTop: number,
  scrollOff = 2,
): Window {
  if (height <= 0 || total <= 0) return { top: 0, end: 0 };
  const so = Math.max(0, Math.min(scrollOff, Math.floor((height - 1) / 2)));
  const c = Math.max(0, Math.min(total - 1, cursor));
  let top = Math.max(0, Math.min(prevTop, total - 1));
  // Context above the cursor.
  if (c < top + so) top = Math.max(0, c - so);
  // The cursor and the context below it must fit: move the top down until they do.
  const last = Math.min(total - 1, c + so);
  while (top < c && linesOf(heightOf, top, last, height) > height) top++;
  // No blank space at the bottom while rows above could fill it.
  let tail = linesOf(heightOf, top, total - 1, height);
  while (top > 0 && tail + heightOf(top - 1) <= height) {
    top--;
    tail += heightOf(top);
  }
  let end = top;
  let used = 0;
  while (end < total && used + heightOf(end) <= height) used += heightOf(end++);
  if (end <= c) end = c + 1; // a row taller than the pane: still show the cursor
  return { top, end };
}

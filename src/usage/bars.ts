/*
 * Horizontal bars in eighths of a cell: full blocks and one fractional block at the end
 * (▏▎▍▌▋▊▉), so a bar's length is exact to 1/8 of a character.
 */

export const FULL = "█";
/** Index i: a block i/8 of a cell wide (0: nothing). */
export const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"] as const;

/**
 * The bar's length in eighths for `value` on a scale where `max` fills `width` cells.
 * Clamped to [0, width × 8]; a positive value shows at least one eighth so it never
 * looks like zero; zero, negative or non-finite input draws nothing.
 */
export function barEighths(value: number, max: number, width: number): number {
  const w = Math.max(0, Math.floor(width));
  if (!(value > 0) || !(max > 0) || w === 0) return 0;
  const ratio = value >= max ? 1 : value / max;
  if (!Number.isFinite(ratio)) return 0;
  return Math.max(1, Math.min(w * 8, Math.round(ratio * w * 8)));
}

/** The bar as text: at most `width` cells (its length is ⌈eighths / 8⌉). */
export function barText(value: number, max: number, width: number): string {
  const e = barEighths(value, max, width);
  return FULL.repeat(Math.floor(e / 8)) + EIGHTHS[e % 8];
}

export interface BarPiece {
  /** Which of the values this piece draws. */
  segment: number;
  /** Full cells of this segment; the last piece may also end in a fractional block. */
  text: string;
}

/**
 * One bar split among several values (a stacked bar: one piece per value, in order). The
 * whole bar is as long as `barText(sum, max, width)`; its full cells go to the values in
 * proportion (largest remainders first), the fractional end to the last value drawn.
 * `glyphs[i]`, when given, fills segment i instead of the full block (for NO_COLOR).
 */
export function stackedBar(
  values: readonly number[],
  max: number,
  width: number,
  glyphs?: readonly string[],
): BarPiece[] {
  const positive = values.map((v) => (v > 0 && Number.isFinite(v) ? v : 0));
  const sum = positive.reduce((a, b) => a + b, 0);
  const e = barEighths(sum, max, width);
  if (e === 0) return [];
  const full = Math.floor(e / 8);
  const cells = positive.map(() => 0);
  if (full > 0) {
    const exact = positive.map((v) => (v / sum) * full);
    let given = 0;
    for (let i = 0; i < exact.length; i++) {
      cells[i] = Math.floor(exact[i]);
      given += cells[i];
    }
    const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
    for (let k = 0; given < full && k < order.length; k++) {
      cells[order[k].i]++;
      given++;
    }
  }
  let last = -1;
  for (let i = 0; i < positive.length; i++) if (positive[i] > 0) last = i;
  const pieces: BarPiece[] = [];
  for (let i = 0; i < positive.length; i++) {
    const tail = i === last ? EIGHTHS[e % 8] : "";
    if (cells[i] === 0 && !tail) continue;
    pieces.push({ segment: i, text: (glyphs?.[i] ?? FULL).repeat(cells[i]) + tail });
  }
  return pieces;
}

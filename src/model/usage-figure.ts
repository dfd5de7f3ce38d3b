/*
 * One rule for the numbers a usage records (tokens and dollars), for the list, `show`,
 * `stats` and the usage view alike: a finite number from 0 to 2^53. Anything else (a
 * negative figure, NaN, or one like 1e308 whose sum would overflow to Infinity) counts as
 * absent, so no total is ever negative or infinite; `show` says how many were left out.
 */

const MAX_FIGURE = Number.MAX_SAFE_INTEGER;

/** The figure, or undefined when it is absent or out of range. */
export function usageFigure(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= MAX_FIGURE ? v : undefined;
}

/** A number written where a figure belongs that the rule leaves out (negative, non-finite, too large). */
export function isBadFigure(v: unknown): boolean {
  return typeof v === "number" && usageFigure(v) === undefined;
}

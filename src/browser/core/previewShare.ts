/** The preview's part of the body by default (the list has the rest). */
export const DEFAULT_PREVIEW_SHARE = 0.45;

/** The shares + and - step through; 0 hides the preview (P), the list taking the whole body. */
export const PREVIEW_SHARES = [0, 0.25, 0.35, 0.45, 0.55, 0.65] as const;

/** The next share one step up (`dir` 1) or down (-1), within PREVIEW_SHARES. */
export function stepShare(share: number, dir: 1 | -1): number {
  const at = PREVIEW_SHARES.findIndex((x) => x >= share);
  const from = at < 0 ? PREVIEW_SHARES.length - 1 : at;
  return PREVIEW_SHARES[Math.max(0, Math.min(PREVIEW_SHARES.length - 1, from + dir))];
}

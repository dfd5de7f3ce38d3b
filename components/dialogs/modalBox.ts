/** Where a dialog of `w`×`h` cells sits, centred in an area of `areaW`×`areaH` (pure layout math). */
export function modalBox(
  areaW: number,
  areaH: number,
  w: number,
  h: number,
): { left: number; top: number; width: number; height: number } {
  const width = Math.max(1, Math.min(w, areaW));
  const height = Math.max(1, Math.min(h, areaH));
  return { left: Math.floor((areaW - width) / 2), top: Math.floor((areaH - height) / 2), width, height };
}

/** A dialog's width for its widest line: border and a space each side, within `max`. */
export function modalWidth(lineWidths: readonly number[], max: number, min = 30): number {
  return Math.max(Math.min(min, max), Math.min(max, Math.max(0, ...lineWidths) + 4));
}

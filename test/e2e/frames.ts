/** Synchronized output (mode 2026): a terminal shows what lies between these as one update. */
export const BSU = "\x1b[?2026h";
export const ESU = "\x1b[?2026l";

export interface Piece {
  text: string;
  /** The screen is a whole frame once this piece is written (not inside a synchronized update). */
  whole: boolean;
}

/**
 * Cuts the program's output into pieces at the synchronized-update marks, so a test reads
 * the screen only between frames, as a terminal that knows mode 2026 shows it. A pty read
 * can end in the middle of Ink's frame: read there, the border's counter has moved and the
 * row under it not yet (a test then pressed one key too many). A mark cut across two reads
 * is held until the rest arrives.
 */
export function frameSplitter(): (data: string) => Piece[] {
  let inSync = false;
  let held = "";
  return (data) => {
    let rest = held + data;
    held = "";
    const out: Piece[] = [];
    for (;;) {
      const mark = inSync ? ESU : BSU;
      const at = rest.indexOf(mark);
      if (at < 0) break;
      out.push({ text: rest.slice(0, at + mark.length), whole: true });
      inSync = !inSync;
      rest = rest.slice(at + mark.length);
    }
    const cut = partialMarkAt(rest, inSync ? ESU : BSU);
    held = rest.slice(cut);
    rest = rest.slice(0, cut);
    if (rest) out.push({ text: rest, whole: !inSync });
    return out;
  };
}

/** Where a prefix of `mark` ends `s` (s.length if none). */
function partialMarkAt(s: string, mark: string): number {
  for (let n = Math.min(mark.length - 1, s.length); n > 0; n--) if (s.endsWith(mark.slice(0, n))) return s.length - n;
  return s.length;
}

import type { DisplayLine } from "./layout.js";
import { comparePositions, type Position, type Transcript } from "./transcript.js";

/** One hit of `/` in the reader: where it starts, and the parts of display lines it covers. */
export interface TranscriptMatch {
  block: number;
  /** One part per display line the hit covers (more than one when it runs across a wrap). */
  parts: { line: number; start: number; end: number }[];
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Every case-insensitive occurrence of `query` in what the transcript shows (so not in
 * collapsed tool output or hidden thinking), in reading order. Searched in the source
 * lines, then mapped to display lines: a hit across a wrap is still found. Only blocks
 * whose source holds a hit are laid out. `start`/`end` index the display line's text.
 */
export function searchTranscript(t: Transcript, query: string): TranscriptMatch[] {
  if (!query) return [];
  const re = new RegExp(escapeRegex(query), "giu");
  const out: TranscriptMatch[] = [];
  for (let b = 0; b < t.blockCount; b++) {
    const source = t.source(b);
    let lines: DisplayLine[] | undefined;
    // Display lines come in source order: a cursor finds each source line's run of them.
    let cursor = 0;
    for (let j = 0; j < source.length; j++) {
      const text = source[j].text;
      re.lastIndex = 0;
      if (!re.test(text)) continue;
      lines ??= t.lines(b);
      while (cursor < lines.length && lines[cursor].src !== -1 && lines[cursor].src < j) cursor++;
      const first = cursor;
      let last = first;
      while (last < lines.length && lines[last].src === j) last++;
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        if (m[0].length === 0) {
          re.lastIndex++;
          continue;
        }
        const from = m.index;
        const to = from + m[0].length;
        // The first display line of this source line that ends after the hit starts.
        let lo = first;
        let hi = last;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (lines[mid].end <= from) lo = mid + 1;
          else hi = mid;
        }
        const parts: TranscriptMatch["parts"] = [];
        for (let i = lo; i < last && lines[i].start < to; i++) {
          const l = lines[i];
          const a = Math.max(from, l.start);
          const z = Math.min(to, l.end);
          if (a < z) parts.push({ line: i, start: l.prefix + a - l.start, end: l.prefix + z - l.start });
        }
        // A hit in a part a "cut" line does not show is not on screen: not a match.
        if (parts.length) out.push({ block: b, parts });
      }
    }
  }
  return out;
}

/** Index of the first match at or after `pos` (`n` from the top of the screen), wrapping to 0; -1 when none. */
export function matchFrom(matches: readonly TranscriptMatch[], pos: Position): number {
  if (matches.length === 0) return -1;
  const i = matches.findIndex((m) => comparePositions({ block: m.block, line: m.parts[0].line }, pos) >= 0);
  return i === -1 ? 0 : i;
}

/** The position to show for a match (its first part). */
export function matchPosition(m: TranscriptMatch): Position {
  return { block: m.block, line: m.parts[0].line };
}

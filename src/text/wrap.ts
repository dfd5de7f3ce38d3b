import { clusters, displayWidth, isSimpleText, simpleCodePointWidth } from "./width.js";

/*
 * Wrapping that remembers where each display line came from: every line is a slice
 * [start, end) of the source line, so a search over the source maps onto the screen.
 * The spaces at a word-wrap break belong to no line. Text must be sanitized (one line,
 * no controls). Plain ASCII, by far the most common, is cut by index arithmetic.
 */

export type WrapMode = "word" | "hard";

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Flat [start0, end0, start1, end1, …] of the display lines of `text` at `width` columns (≥ 1). */
export function wrapRanges(text: string, width: number, mode: WrapMode): number[] {
  const w = Math.max(1, Math.floor(width));
  if (text.length <= w && PRINTABLE_ASCII.test(text)) return [0, text.length];
  if (PRINTABLE_ASCII.test(text)) return wrapAscii(text, w, mode);
  return wrapClusters(text, w, mode);
}

function wrapAscii(text: string, w: number, mode: WrapMode): number[] {
  const out: number[] = [];
  const n = text.length;
  let start = 0;
  while (n - start > w) {
    if (mode === "word") {
      // The last space that lets the line end within the width (a space right after
      // the width counts: the line ends just before it).
      const brk = text.lastIndexOf(" ", start + w);
      if (brk > start) {
        let end = brk;
        while (end > start && text.charCodeAt(end - 1) === 32) end--;
        if (end > start) {
          out.push(start, end);
          start = brk + 1;
          while (start < n && text.charCodeAt(start) === 32) start++;
          continue;
        }
      }
    }
    out.push(start, start + w);
    start += w;
  }
  if (start < n || out.length === 0) out.push(start, n);
  return out;
}

/** The general case: clusters with their widths (wide characters never split across the edge). */
function wrapClusters(text: string, w: number, mode: WrapMode): number[] {
  const out: number[] = [];
  const word = mode === "word";
  let lineStart = 0;
  let col = 0;
  // Word mode: where the current run of spaces began, and the last break in this line:
  // the end of the words before it, the start of the word after it and that word's column.
  let spaceRun = -1;
  let breakEnd = -1;
  let breakNext = -1;
  let colAtNext = 0;
  let prevSpace = false;
  // After a word-wrap break the spaces that follow belong to no line.
  let afterBreak = false;
  const step = (index: number, isSpace: boolean, cw: number) => {
    const space = word && isSpace;
    if (afterBreak) {
      if (space) return;
      afterBreak = false;
      lineStart = index;
      prevSpace = false;
    }
    if (space && !prevSpace) spaceRun = index;
    if (word && !space && prevSpace) {
      breakEnd = spaceRun;
      breakNext = index;
      colAtNext = col;
    }
    prevSpace = space;
    if (col + cw > w && col > 0) {
      if (space && spaceRun > lineStart) {
        out.push(lineStart, spaceRun);
        afterBreak = true;
        col = 0;
        breakEnd = breakNext = -1;
        return;
      }
      if (breakEnd > lineStart && breakNext > lineStart) {
        out.push(lineStart, breakEnd);
        lineStart = breakNext;
        col -= colAtNext;
      }
      // No break to go back to, or the word alone is still too wide after it: cut here.
      if (col + cw > w && col > 0 && lineStart < index) {
        out.push(lineStart, index);
        lineStart = index;
        col = 0;
      }
      breakEnd = breakNext = -1;
    }
    col += cw;
  };
  if (isSimpleText(text)) {
    // Every code point its own cluster (nearly all text): walked with its East Asian
    // Width, without a segmenter or a regex per character.
    for (let i = 0; i < text.length; i++) {
      const cp = text.codePointAt(i)!;
      step(i, cp === 32, simpleCodePointWidth(cp));
      if (cp > 0xffff) i++;
    }
  } else {
    for (const { segment, index } of clusters(text)) step(index, segment === " ", displayWidth(segment));
  }
  if (afterBreak) lineStart = text.length;
  if (lineStart < text.length || out.length === 0) out.push(lineStart, text.length);
  return out;
}

/** Exported for the tests: the general path, also on ASCII. */
export const wrapRangesSlow = (text: string, width: number, mode: WrapMode) =>
  wrapClusters(text, Math.max(1, Math.floor(width)), mode);

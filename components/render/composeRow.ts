import { ansiCodesToString, diffAnsiCodes, reduceAnsiCodesIncremental, styledCharsFromTokens, tokenize, type AnsiCode } from "@alcalzone/ansi-tokenize";
import { displayWidth, isSimpleText, simpleCodePointWidth } from "../../src/text/width.js";

/*
 * One screen row as Ink's Output draws it, without its cost. Ink splits every line into
 * one object per grapheme (through Intl.Segmenter), copies the active colour codes into
 * each, places them in a grid, and joins the row back by diffing the codes of every pair of
 * neighbours. On a cold start that was 50–85 ms for one 120×40 frame.
 *
 * Here a line whose text is "simple" (src/text/width.ts: every code point its own
 * grapheme) and whose escapes are all SGR colour codes is walked by code point, and the
 * characters between two codes share one code list, so the row is joined by comparing
 * lists by identity and diffing only where they change (each diff remembered). Other
 * lines go through ansi-tokenize as in Ink. The codes themselves (splitting, reducing,
 * diffing) are ansi-tokenize's own functions, so the text is Ink's byte for byte;
 * composeRow.test.ts checks that against Ink's Output on random rows.
 */

export interface Segment {
  x: number;
  line: string;
}

interface Cell {
  value: string;
  styles: AnsiCode[];
  /** Columns, as Ink counts them: at least 1. */
  width: number;
}

const NONE: AnsiCode[] = [];
const SGR = /\u001b\[[0-9;]*m/g;
const MAX_CACHED = 4000;

const cellCache = new Map<string, Cell[]>();
const sgrCache = new Map<string, AnsiCode[]>();
const openCache = new WeakMap<AnsiCode[], string>();
const diffCache = new WeakMap<AnsiCode[], WeakMap<AnsiCode[], string>>();

/** The codes one SGR sequence stands for (a compound one split as ansi-tokenize does). */
function sgrCodes(seq: string): AnsiCode[] {
  let codes = sgrCache.get(seq);
  if (codes === undefined) {
    codes = tokenize(seq).filter((t): t is AnsiCode => t.type === "ansi");
    sgrCache.set(seq, codes);
  }
  return codes;
}

function isFastLine(line: string): boolean {
  // Escapes other than SGR (and any other control character) stay in `plain` and make it not simple.
  const plain = line.includes("\u001b") ? line.replace(SGR, "") : line;
  return isSimpleText(plain);
}

function fastCells(line: string): Cell[] {
  const cells: Cell[] = [];
  let codes = NONE;
  for (let i = 0; i < line.length; ) {
    const c = line.charCodeAt(i);
    if (c === 0x1b) {
      // isFastLine saw to it that this starts an SGR sequence, which ends at the first "m".
      const end = line.indexOf("m", i);
      if (end < 0) return inkCells(line); // cannot happen; never loop on it
      codes = reduceAnsiCodesIncremental(codes, sgrCodes(line.slice(i, end + 1)));
      i = end + 1;
      continue;
    }
    const pair = c >= 0xd800 && c <= 0xdbff;
    const cp = pair ? line.codePointAt(i)! : c;
    cells.push({ value: line.slice(i, i + (pair ? 2 : 1)), styles: codes, width: Math.max(1, simpleCodePointWidth(cp)) });
    i += pair ? 2 : 1;
  }
  return cells;
}

function inkCells(line: string): Cell[] {
  return styledCharsFromTokens(tokenize(line)).map((ch) => ({ value: ch.value, styles: ch.styles, width: Math.max(1, displayWidth(ch.value)) }));
}

function cellsOf(line: string): Cell[] {
  let cells = cellCache.get(line);
  if (cells === undefined) {
    if (cellCache.size >= MAX_CACHED) cellCache.clear();
    cells = isFastLine(line) ? fastCells(line) : inkCells(line);
    cellCache.set(line, cells);
  }
  return cells;
}

function openCodes(styles: AnsiCode[]): string {
  let s = openCache.get(styles);
  if (s === undefined) {
    s = ansiCodesToString(styles);
    openCache.set(styles, s);
  }
  return s;
}

function diffCodes(from: AnsiCode[], to: AnsiCode[]): string {
  let byTo = diffCache.get(from);
  if (byTo === undefined) diffCache.set(from, (byTo = new WeakMap()));
  let s = byTo.get(to);
  if (s === undefined) {
    s = ansiCodesToString(diffAnsiCodes(from, to));
    byTo.set(to, s);
  }
  return s;
}

/**
 * The text Ink's Output gives a row `width` columns wide that receives `segments` in
 * order (already clipped and transformed; see rowSegments): later writes cover earlier
 * ones, a wide character blanks the column after it, cells left of 0 are dropped, and
 * trailing blanks are trimmed.
 */
export function composeRow(width: number, segments: readonly Segment[]): string {
  const values: (string | undefined)[] = new Array<string>(width).fill(" ");
  const styles: AnsiCode[][] = new Array<AnsiCode[]>(width).fill(NONE);
  for (const seg of segments) {
    let x = seg.x;
    for (const cell of cellsOf(seg.line)) {
      for (let k = 0; k < cell.width; k++) {
        // Ink assigns to row[x]: a negative x names no cell, a far one leaves holes.
        if (x + k >= 0) {
          values[x + k] = k === 0 ? cell.value : "";
          styles[x + k] = cell.styles;
        }
      }
      x += cell.width;
    }
  }
  let out = "";
  let prev: AnsiCode[] | undefined;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === undefined) continue;
    const st = styles[i];
    if (prev === undefined) out += openCodes(st);
    else if (st !== prev) out += diffCodes(prev, st);
    out += v;
    prev = st;
  }
  if (prev !== undefined) out += diffCodes(prev, NONE);
  return out.trimEnd();
}

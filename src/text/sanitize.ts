/// <reference lib="es2024.string" />
import { wrapRanges } from "./wrap.js";
import stripAnsi from "strip-ansi";
import { clusters, displayWidth, graphemes } from "./width.js";

export { displayWidth } from "./width.js";

/*
 * The one gate for text that comes from session files. Everything shown on screen
 * goes through sanitizeLine / sanitizeMultiline first, so a file cannot move the
 * cursor, change colours or switch screens.
 */

// C0 (except \t \n, handled separately), DEL and C1. C1 includes lone CSI/OSC
// introducers (0x9b, 0x9d) that strip-ansi does not treat as sequences.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Bidi overrides and isolates can reorder what the terminal shows.
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;
// What terminals disagree on the width of, so a row measured here would not line up
// there (a pane border shifts): joiners and other format characters (ZWJ, ZWSP, WJ, BOM,
// soft hyphen, tags), variation selectors (VS16 makes ❤ wide only in some terminals) and
// emoji skin-tone modifiers. Without them a ZWJ sequence is its emoji side by side (👩‍👩‍👧
// is 👩👩👧), and every code point has the width its East Asian Width gives it, which is
// how terminals measure.
const WIDTH_AMBIGUOUS = /[\p{Cf}\ufe00-\ufe0f\u{e0100}-\u{e01ef}\u{1f3fb}-\u{1f3ff}]/gu;
const MAY_BE_AMBIGUOUS = /[^\x00-\xac\xae-\u05ff]/;

// Half a surrogate pair (a file name's byte that is not UTF-8: src/store/fs-path.ts) is
// shown as U+FFFD (toWellFormed, below).

// What BIDI and WIDTH_AMBIGUOUS can remove: the format characters (Cf) of the BMP, its
// variation selectors, and the first half of every pair that can be one of theirs (planes 1
// and 14's Cf, skin tones, the supplementary selectors). Most text (CJK, accents, most
// emoji) holds none, and one test costs less than two replaces that change nothing (a
// 50,000-row `list` spent a third of its formatting in them). Written out rather than as
// \p{Cf}: a Unicode-mode test of a long text costs more than the replaces (sanitize.test.ts
// checks every character that can be removed, and every one of the BMP).
const MAY_HAVE_FORMAT =
  /[\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufe00-\ufe0f\ufeff\ufff9-\ufffb\ud804\ud80d\ud82f\ud834\ud83c\udb40]/;

// MAY_HAVE_FORMAT's ranges merged into a few (a superset): a text that holds none of them
// holds none of its characters, and a class of six ranges is tested in a third of the time
// of its twenty (CJK titles hold neither; 50,000 of them were tested for each `list`).
const MAY_HAVE_FORMAT_WIDE = /[\u00ad\u0600-\u08e2\u180e\u200b-\u206f\ufe00-\ufeff\ufff9-\ufffb\ud804-\udb40]/;
const MAY_HAVE_FORMAT_ALL = new RegExp(MAY_HAVE_FORMAT.source, "g");

/**
 * MAY_HAVE_FORMAT's test, but a pair starting with \ud83c (U+1F300–1F3FF: 🎉 🏠 🌟, common in
 * titles) says yes only for a skin tone (U+1F3FB–1F3FF), the one kind of it WIDTH_AMBIGUOUS
 * removes: such emoji sent every title holding one through two replaces that changed nothing,
 * and `list`'s writer sanitized its whole table again (10 MB, ~0.2 s at 50,000 rows).
 */
function mayHaveFormat(s: string): boolean {
  if (!MAY_HAVE_FORMAT_WIDE.test(s)) return false;
  const re = MAY_HAVE_FORMAT_ALL;
  re.lastIndex = 0;
  // test() rather than exec(): no match array made for each such emoji.
  while (re.test(s)) {
    const at = re.lastIndex - 1;
    if (s.charCodeAt(at) !== 0xd83c) return true;
    const lo = s.charCodeAt(at + 1);
    if (lo >= 0xdffb && lo <= 0xdfff) return true;
  }
  return false;
}

/** Whether a text may hold a format character or half a pair that sanitizing removes or replaces. */
export function mayHoldFormat(s: string): boolean {
  return mayHaveFormat(s) || !s.isWellFormed();
}

function stripControls(s: string): string {
  return stripFormat(stripAnsi(s).replace(CONTROL, ""));
}

/** stripControls' work after escapes and controls are gone: format characters, bidi controls and lone halves. */
function stripFormat(t: string): string {
  if (!MAY_BE_AMBIGUOUS.test(t)) return t;
  const u = mayHaveFormat(t) ? t.replace(BIDI, "").replace(WIDTH_AMBIGUOUS, "") : t;
  // Each lone half of a pair as U+FFFD, natively (what a replace of them all gave).
  return u.isWellFormed() ? u : u.toWellFormed();
}

// Every character an escape sequence (strip-ansi's: each starts with ESC or a C1 control),
// CONTROL or a line end can start with: text without any has none of them to remove.
const C0_C1 = /[\u0000-\u001f\u007f-\u009f]/;

// Printable ASCII alone: nothing to remove or replace (no escape, control, tab or newline).
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** One line: escape sequences and control characters removed, tabs and newlines become spaces. */
export function sanitizeLine(s: string): string {
  if (!s) return "";
  if (PRINTABLE_ASCII.test(s)) return s;
  // Most text that is not ASCII (CJK, accents, emoji) holds no control: one test rather than three replaces.
  if (!C0_C1.test(s)) return stripFormat(s);
  return stripControls(s.replace(/\r\n?|\n|\t/g, " "));
}

/** Several lines: like sanitizeLine but \n is kept (\r\n and lone \r become \n). */
export function sanitizeMultiline(s: string): string {
  if (!s) return "";
  if (PRINTABLE_ASCII.test(s)) return s;
  return stripControls(s.replace(/\r\n?/g, "\n").replace(/\t/g, "  "));
}

/**
 * Text for the clipboard: as written, but with every C0 and C1 control other than tab and
 * newline removed (line ends become \n). What is pasted from it cannot end a bracketed paste
 * early (ESC[201~) or type keys into the terminal it lands in.
 */
export function clipboardText(s: string): string {
  return s.replace(/\r\n?/g, "\n").replace(CONTROL, "");
}

// ASCII printable fast path: one column per char, no segmentation needed.
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

/** Cut to at most `width` columns, ending with "…" when something was cut. */
export function truncateToWidth(s: string, width: number, ellipsis = "…"): string {
  if (width <= 0) return "";
  if (PLAIN_ASCII.test(s)) {
    if (s.length <= width) return s;
    return width <= ellipsis.length ? ellipsis.slice(0, width) : s.slice(0, width - ellipsis.length) + ellipsis;
  }
  // Escape sequences are measured by string-width as a whole; otherwise stop measuring
  // once past the width, so a long first message costs O(width), not O(length), per row.
  if (!ESCAPES.test(s)) return truncateGraphemes(s, width, ellipsis);
  if (displayWidth(s) <= width) return s;
  const budget = width - displayWidth(ellipsis);
  if (budget < 0) return "";
  let used = 0;
  let out = "";
  for (const g of graphemes(s)) {
    const w = displayWidth(g);
    if (used + w > budget) break;
    out += g;
    used += w;
  }
  return out + ellipsis;
}

const ESCAPES = /[\u001b\u009b]/;

/** truncateToWidth for text without escapes: one pass over at most `width`+1 columns. */
function truncateGraphemes(s: string, width: number, ellipsis: string): string {
  const budget = width - displayWidth(ellipsis);
  let used = 0;
  let cut = -1;
  for (const { segment, index } of clusters(s)) {
    const w = displayWidth(segment);
    if (cut < 0 && used + w > budget) cut = index;
    used += w;
    if (used > width) return budget < 0 ? "" : s.slice(0, cut) + ellipsis;
  }
  return s;
}

/** Cut from the left ("…/deep/path"), for paths where the end says the most. */
export function truncateStartToWidth(s: string, width: number, ellipsis = "…"): string {
  if (width <= 0) return "";
  if (displayWidth(s) <= width) return s;
  const budget = width - displayWidth(ellipsis);
  if (budget < 0) return "";
  const gs = graphemes(s);
  let used = 0;
  let out = "";
  for (let i = gs.length - 1; i >= 0; i--) {
    const w = displayWidth(gs[i]);
    if (used + w > budget) break;
    out = gs[i] + out;
    used += w;
  }
  return ellipsis + out;
}

/** Truncate, then pad with spaces to exactly `width` columns. */
export function padToWidth(s: string, width: number, align: "left" | "right" = "left"): string {
  const t = truncateToWidth(s, width);
  const gap = Math.max(0, width - displayWidth(t));
  if (gap === 0) return t;
  return align === "left" ? t + " ".repeat(gap) : " ".repeat(gap) + t;
}

/**
 * Word-wrap to `width` columns with the one wrapper (`wrap.ts`). Paragraphs split on \n;
 * words longer than a line are broken by grapheme. Empty paragraphs stay as empty lines.
 */
export function wrapToWidth(text: string, width: number): string[] {
  if (width <= 0) return [];
  const lines: string[] = [];
  for (const para of text.split("\n")) {
    const r = wrapRanges(para, width, "word");
    for (let i = 0; i < r.length; i += 2) lines.push(para.slice(r[i], r[i + 1]).trimEnd());
  }
  return lines;
}

/**
 * A path cut to `width` at a folder boundary, so the last name stays whole:
 * "/home/kim/code/研究" → "…/code/研究" → "…/研究"; only a last name wider than
 * the room is cut, at its end ("研…").
 */
export function truncatePathToWidth(path: string, width: number): string {
  if (width <= 0) return "";
  if (displayWidth(path) <= width) return path;
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i++) {
    const tail = "…/" + parts.slice(i).join("/");
    if (parts.slice(i).join("") !== "" && displayWidth(tail) <= width) return tail;
  }
  const name = parts.filter(Boolean).pop() ?? path;
  return truncateToWidth(name, width);
}

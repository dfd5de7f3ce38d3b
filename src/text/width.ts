import { eastAsianWidth } from "get-east-asian-width";
import stripAnsi from "strip-ansi";
import { slowStringWidth } from "./slow-width.js";

/*
 * Display width with a fast path in front of string-width.
 *
 * string-width segments every non-ASCII string into grapheme clusters and tests each
 * against an RGI-emoji regex. The first use costs ~30 ms (ICU's segmenter and that
 * regex's compilation) and each later line a few µs per character; Ink measures every
 * visible line on every frame, and our rows hold "❯", "·" and box glyphs. Most text is
 * "simple": every code point is its own cluster and its width is its East Asian Width
 * (a lone emoji such as 🚀 included: Unicode gives those W).
 * That is summed here directly; anything else goes to string-width itself, which stays
 * the reference (test/text-width.test.ts compares the two over every BMP code point).
 */

// Code points that join, extend or hide inside a cluster, or whose width is not their
// East Asian Width: marks (VS16 among them), controls and formats (ZWJ among them),
// default-ignorables, regional indicators, emoji modifiers, Hangul jamo, and the few letters that are Grapheme_Extend,
// SpacingMark, Prepend or Hangul-like vowels without being marks (ﾞ ﾟ, Thai/Lao SARA AM,
// the Prepend letters, Kirat Rai vowels); width.test.ts finds any the segmenter joins.
const NOT_SIMPLE =
  /[\p{M}\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}\p{Regional_Indicator}\p{Emoji_Modifier}\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\uff9e\uff9f\u0e33\u0eb3\u0d4e\u{111c2}\u{111c3}\u{1193f}\u{11941}\u{11a3a}\u{11a84}-\u{11a89}\u{11d46}\u{11f02}\u{113d1}\u{16d63}\u{16d67}-\u{16d6a}]/u;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ESCAPE = /[\u001b\u009b]/;
const NARROW = { ambiguousAsWide: false };

/** True when every code point of `s` is a cluster of its own whose width is its East Asian Width. */
export function isSimpleText(s: string): boolean {
  return PRINTABLE_ASCII.test(s) || !NOT_SIMPLE.test(s);
}

/** Columns of one code point of simple text (see isSimpleText). */
export function simpleCodePointWidth(cp: number): number {
  return cp < 0x7f ? 1 : eastAsianWidth(cp, NARROW);
}

function simpleWidth(s: string): number {
  let w = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x7f) {
      w++;
      continue;
    }
    let cp = c;
    if (c >= 0xd800 && c <= 0xdbff) {
      cp = s.codePointAt(i)!;
      i++;
    }
    w += eastAsianWidth(cp, NARROW);
  }
  return w;
}

/**
 * The Unicode rules display widths are measured by (Intl.Segmenter's graphemes, ICU's data),
 * as Node names them: part of the key of an answer kept aligned or cut by them (a Node
 * upgrade under the same build may align or cut a row otherwise).
 */
export function displayRules(): string {
  return `${process.versions.unicode ?? ""}/${process.versions.icu ?? ""}`;
}

/** Terminal columns a string occupies: string-width's answer (CJK and emoji 2, combining marks 0). */
export function displayWidth(s: string): number {
  if (s.length === 0) return 0;
  if (PRINTABLE_ASCII.test(s)) return s.length;
  const plain = ESCAPE.test(s) ? stripAnsi(s) : s;
  if (plain.length === 0) return 0;
  // An escape left after stripping ("\x1b\x1bmm"): string-width strips once, on the original.
  if (plain !== s && ESCAPE.test(plain)) return slowStringWidth(s);
  if (PRINTABLE_ASCII.test(plain)) return plain.length;
  return NOT_SIMPLE.test(plain) ? slowStringWidth(plain) : simpleWidth(plain);
}

type StringWidthOptions = { ambiguousIsNarrow?: boolean; countAnsiEscapeCodes?: boolean };

/** string-width's own signature, for the bundle to hand to Ink and its helpers (scripts/bundle.mjs). */
export function stringWidthCompatible(s: unknown, options?: StringWidthOptions): number {
  if (typeof s !== "string") return 0;
  if (options && (options.ambiguousIsNarrow === false || options.countAnsiEscapeCodes === true))
    return slowStringWidth(s, options);
  return displayWidth(s);
}

let segmenter: Intl.Segmenter | undefined;

/**
 * The clusters of `s` with their start index: code points when the text is simple
 * (no segmenter needed), else Intl.Segmenter's graphemes. The segmenter is made on
 * first need because making it starts ICU (~12 ms), which a first frame rarely needs.
 */
export function* clusters(s: string): Generator<{ segment: string; index: number }> {
  if (isSimpleText(s)) {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < s.length;
      yield { segment: pair ? s.slice(i, i + 2) : s[i], index: i };
      if (pair) i++;
    }
    return;
  }
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  yield* segmenter.segment(s);
}

/** The clusters of `s` as strings. */
export function graphemes(s: string): string[] {
  const out: string[] = [];
  for (const { segment } of clusters(s)) out.push(segment);
  return out;
}

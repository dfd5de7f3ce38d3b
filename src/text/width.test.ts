import fc from "fast-check";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { clusters, displayWidth, graphemes, isSimpleText, stringWidthCompatible } from "./width.js";

// string-width is the reference. Text that is not simple goes to string-width itself, so
// what needs proof is the fast path: each simple code point has string-width's width, and
// next to anything simple (a letter, itself, a Hangul syllable, a Devanagari consonant, a
// precomposed letter) it stays a cluster of its own, so widths add up.
const UNASSIGNED_OR_PRIVATE = /^[\p{Cn}\p{Co}]$/u;

function mismatches(from: number, to: number, skip?: RegExp): string[] {
  const bad: string[] = [];
  const seg = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  for (let cp = from; cp <= to && bad.length < 20; cp++) {
    const ch = String.fromCodePoint(cp);
    // Unassigned and private-use code points are most of the astral planes; sampled.
    if (!isSimpleText(ch) || (skip?.test(ch) && cp % 1000 !== 0)) continue;
    if (displayWidth(ch) !== stringWidth(ch))
      bad.push(`U+${cp.toString(16)}: ${displayWidth(ch)} vs ${stringWidth(ch)}`);
    const s = `a${ch}${ch}가${ch}क${ch}é${ch}a`;
    let n = 0;
    for (const _ of seg.segment(s)) n++;
    if (n !== [...s].length || !isSimpleText(s))
      bad.push(`U+${cp.toString(16)} joins a cluster in ${JSON.stringify(s)}`);
  }
  return bad;
}

describe("displayWidth", () => {
  it("agrees with string-width on every BMP code point in context", () => {
    expect(mismatches(0, 0xffff)).toEqual([]);
  });

  it("agrees with string-width on every assigned astral code point in context", () => {
    expect(mismatches(0x10000, 0x10ffff, UNASSIGNED_OR_PRIVATE)).toEqual([]);
  });

  it("agrees with string-width on emoji sequences, flags, keycaps, jamo and escapes", () => {
    const samples = [
      "👍🏽",
      "👨‍👩‍👧",
      "🇫🇷",
      "#️⃣",
      "1⃣",
      "각",
      "ｶﾞ",
      "é",
      "\u001b[31mred\u001b[39m",
      "\u001b[1m漢字\u001b[22m",
      "\u001b",
      "❯ naïve · 日本 │ ok",
    ];
    for (const s of samples) expect(displayWidth(s), s).toBe(stringWidth(s));
  });

  it("agrees with string-width on random mixed text", () => {
    const alphabet = fc.constantFrom(
      ..."ab ❯·│─├└…日本語한국어é\u0301\u200d👍🏽🇫🇷\ufe0f\u1100\u1161\u0915\u094dｶﾞ\u0e33\u00ad\u001b[m",
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 30 }), (chars) => {
        const s = chars.join("");
        expect(displayWidth(s)).toBe(stringWidth(s));
      }),
      { numRuns: 3000 },
    );
  });

  it("counts plain ASCII by length and the empty string as 0", () => {
    expect(displayWidth("")).toBe(0);
    expect(displayWidth("hello world")).toBe(11);
  });
});

describe("stringWidthCompatible", () => {
  it("takes string-width's options and non-strings as string-width does", () => {
    expect(stringWidthCompatible("±", { ambiguousIsNarrow: false })).toBe(
      stringWidth("±", { ambiguousIsNarrow: false }),
    );
    expect(stringWidthCompatible("±", { ambiguousIsNarrow: false })).toBe(2);
    expect(stringWidthCompatible("\u001b[31mx", { countAnsiEscapeCodes: true })).toBe(
      stringWidth("\u001b[31mx", { countAnsiEscapeCodes: true }),
    );
    expect(stringWidthCompatible(undefined)).toBe(0);
    expect(stringWidthCompatible("日本")).toBe(4);
  });
});

describe("clusters", () => {
  it("gives code points with their index for simple text, surrogate pairs whole", () => {
    expect([...clusters("a日𠀋b")]).toEqual([
      { segment: "a", index: 0 },
      { segment: "日", index: 1 },
      { segment: "𠀋", index: 2 },
      { segment: "b", index: 4 },
    ]);
  });

  it("gives grapheme clusters for text that is not simple", () => {
    expect(graphemes("e\u0301👍🏽x")).toEqual(["e\u0301", "👍🏽", "x"]);
    expect([...clusters("e\u0301x")].map((c) => c.index)).toEqual([0, 2]);
  });
});

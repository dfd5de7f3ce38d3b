import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displayWidth } from "./width.js";
import { wrapRanges, wrapRangesSlow } from "./wrap.js";

const lines = (text: string, width: number, mode: "word" | "hard" = "word") => {
  const r = wrapRanges(text, width, mode);
  const out: string[] = [];
  for (let i = 0; i < r.length; i += 2) out.push(text.slice(r[i], r[i + 1]));
  return out;
};

describe("wrapRanges", () => {
  it("breaks at spaces and drops the spaces at a break", () => {
    expect(lines("the quick brown fox", 10)).toEqual(["the quick", "brown fox"]);
    expect(lines("aaaaa bbb", 5)).toEqual(["aaaaa", "bbb"]);
    expect(lines("ab    cd", 3)).toEqual(["ab", "cd"]);
  });
  it("hard-breaks a word longer than the line, and everything in hard mode", () => {
    expect(lines("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
    expect(lines("ab cdef", 3, "hard")).toEqual(["ab ", "cde", "f"]);
  });
  it("keeps one empty line for empty text", () => {
    expect(wrapRanges("", 10, "word")).toEqual([0, 0]);
  });
  it("measures wide characters and never splits one across the edge", () => {
    expect(lines("研究研究研", 4)).toEqual(["研究", "研究", "研"]);
    expect(lines("a研究", 4)).toEqual(["a研", "究"]);
    expect(lines("会话 分支 🚀 ok", 7)).toEqual(["会话", "分支 🚀", "ok"]);
    for (const l of lines("naïve café 👩‍💻 résumé ﾃｽﾄ 研究 text", 7)) expect(displayWidth(l)).toBeLessThanOrEqual(7);
  });
  it("keeps joined emoji and combining marks whole", () => {
    const text = "👩‍💻👩‍💻👩‍💻";
    const got = lines(text, 4);
    expect(got).toEqual(["👩‍💻👩‍💻", "👩‍💻"]);
    expect(lines("e\u0301e\u0301e\u0301", 2)).toEqual(["e\u0301e\u0301", "e\u0301"]);
  });
  it("a word still too wide after going back to the last space is cut where it overflows", () => {
    // A lone combining mark (width 0) then a space: the word after it took the line's start
    // at column 1, and two emoji (4 columns) stayed on a 3-column line (a property test's find).
    expect(lines("\u0301 👩💻", 3)).toEqual(["\u0301", "👩", "💻"]);
    expect(lines("a 研究研", 3)).toEqual(["a", "研", "究", "研"]);
    for (const l of lines("\u0301 👩💻 x", 3)) expect(displayWidth(l)).toBeLessThanOrEqual(3);
  });
  it("a width below 1 still makes progress", () => {
    expect(lines("abc", 0)).toEqual(["a", "b", "c"]);
  });
  it("ASCII fast path and the general path agree, and every line fits", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[ a-e]{0,60}$/),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom("word" as const, "hard" as const),
        (text, width, mode) => {
          const fast = wrapRanges(text, width, mode);
          expect(wrapRangesSlow(text, width, mode)).toEqual(fast);
          for (let i = 0; i < fast.length; i += 2) {
            expect(fast[i + 1] - fast[i]).toBeLessThanOrEqual(width);
            if (i > 0) expect(fast[i]).toBeGreaterThanOrEqual(fast[i - 1]);
          }
          // Nothing but spaces at breaks is lost.
          const kept = [];
          for (let i = 0; i < fast.length; i += 2) kept.push(text.slice(fast[i], fast[i + 1]));
          expect(kept.join("").replace(/ /g, "")).toBe(text.replace(/ /g, ""));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

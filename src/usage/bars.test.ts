import { describe, expect, it } from "vitest";
import { displayWidth } from "../text/sanitize.js";
import { barEighths, barText, EIGHTHS, FULL, stackedBar } from "./bars.js";

describe("barText", () => {
  it("draws full cells and one fractional block in eighths", () => {
    expect(barText(10, 10, 4)).toBe("████");
    expect(barText(5, 10, 4)).toBe("██");
    // 3/10 of 4 cells = 1.2 cells = 9.6 eighths → 10 eighths: one cell and a quarter
    expect(barText(3, 10, 4)).toBe("█▎");
    expect(barText(1, 8, 1)).toBe("▏");
    for (let i = 1; i < 8; i++) expect(barText(i, 8, 1)).toBe(EIGHTHS[i]);
  });
  it("is never wider than its width, and exactly as long as its eighths say", () => {
    for (const width of [1, 2, 7, 13, 40]) {
      for (let v = 0; v <= 97; v++) {
        const t = barText(v, 97, width);
        const e = barEighths(v, 97, width);
        expect(displayWidth(t)).toBe(Math.ceil(e / 8));
        expect(displayWidth(t)).toBeLessThanOrEqual(width);
      }
      expect(displayWidth(barText(97, 97, width))).toBe(width);
    }
  });
  it("draws nothing for zero, negative, NaN or a zero scale, and a sliver for a tiny value", () => {
    expect(barText(0, 10, 10)).toBe("");
    expect(barText(-3, 10, 10)).toBe("");
    expect(barText(Number.NaN, 10, 10)).toBe("");
    expect(barText(5, 0, 10)).toBe("");
    expect(barText(5, 10, 0)).toBe("");
    expect(barText(1e-9, 1e9, 10)).toBe("▏");
  });
  it("clamps huge values to the width", () => {
    expect(barText(1e300, 1, 5)).toBe(FULL.repeat(5));
    expect(barText(Number.MAX_VALUE, Number.MAX_VALUE, 3)).toBe(FULL.repeat(3));
    expect(barText(Infinity, 10, 3)).toBe(FULL.repeat(3));
    expect(barText(2 ** 53, 2 ** 54, 4)).toBe("██");
  });
});

describe("stackedBar", () => {
  const text = (p: { text: string }[]) => p.map((x) => x.text).join("");
  it("is as long as the plain bar of the sum, split in proportion", () => {
    const p = stackedBar([3, 1], 4, 8);
    expect(text(p)).toBe("████████");
    expect(p).toEqual([
      { segment: 0, text: "██████" },
      { segment: 1, text: "██" },
    ]);
    for (const vals of [[1, 2, 3], [0.1, 0, 7.3, 2], [5], [1, 1, 1, 1, 1, 1, 1]]) {
      const sum = vals.reduce((a, b) => a + b, 0);
      for (const width of [1, 3, 10, 33])
        expect(text(stackedBar(vals, sum * 1.37, width))).toBe(barText(sum, sum * 1.37, width));
    }
  });
  it("ends in the fractional block, on the last value drawn; skips zero values", () => {
    const p = stackedBar([2, 0, 1.5], 8, 8);
    expect(p).toEqual([
      { segment: 0, text: "██" },
      { segment: 2, text: "█▌" },
    ]);
  });
  it("fills with a glyph per segment when asked", () => {
    expect(text(stackedBar([1, 1], 2, 4, ["a", "b"]))).toBe("aabb");
  });
  it("draws nothing for no usage", () => {
    expect(stackedBar([0, 0], 10, 10)).toEqual([]);
    expect(stackedBar([], 10, 10)).toEqual([]);
  });
});

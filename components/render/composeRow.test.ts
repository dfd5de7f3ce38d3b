import fc from "fast-check";
import { describe, expect, it } from "vitest";
// Ink's own Output class is the reference (it is not among Ink's exports, hence the path).
import InkOutput from "../../node_modules/ink/build/output.js";
import type { OutputClass } from "./rowMemoOutput.js";
import { composeRow, type Segment } from "./composeRow.js";

const Ink = InkOutput as unknown as OutputClass;

/** Ink's text for one row receiving `segments`. */
function inkRow(width: number, segments: Segment[]): string {
  const o = new Ink({ width, height: 1 });
  for (const s of segments) o.write(s.x, 0, s.line, { transformers: [] });
  return o.get().output;
}

// Text pieces: simple ones, and ones the fast path must leave to ansi-tokenize.
const piece = fc.constantFrom("a", "bc", "héllo", " ", "  ", "│", "❯ ", "…", "日本", "🚀", "x".repeat(9), "e\u0301", "👍🏽", "🇫🇷", "\u200d", "ᄀ각", "\t", "\u009b1m", "\u001b", "\u001b[", "\u001b[2J", "\u001b]8;;https://x\u0007link\u001b]8;;\u0007");
// SGR codes as chalk and others write them: simple, compound, 256-colour, truecolour, resets.
const sgr = fc.constantFrom("\u001b[31m", "\u001b[39m", "\u001b[1m", "\u001b[22m", "\u001b[2m", "\u001b[1;31m", "\u001b[38;5;208m", "\u001b[48;2;1;2;3m", "\u001b[0m", "\u001b[m", "\u001b[7m", "\u001b[27m", "\u001b[4;38;5;12m", "\u001b[99m", "\u001b[38;5m");
const line = fc.array(fc.oneof({ arbitrary: piece, weight: 3 }, { arbitrary: sgr, weight: 2 }), { maxLength: 8 }).map((ps) => ps.join(""));
const row = fc.record({ width: fc.integer({ min: 1, max: 24 }) }).chain(({ width }) =>
  fc.record({
    width: fc.constant(width),
    segments: fc.array(fc.record({ x: fc.integer({ min: -4, max: width + 4 }), line }), { maxLength: 5 }),
  }),
);

describe("composeRow", () => {
  it("gives Ink's text for random rows (overlaps, wide and joined characters, every kind of escape)", () => {
    fc.assert(
      fc.property(row, ({ width, segments }) => {
        expect(composeRow(width, segments)).toBe(inkRow(width, segments));
      }),
      { numRuns: 5000 },
    );
  });

  it("gives Ink's text for rows like the browser's", () => {
    const dim = (s: string) => `\u001b[2m${s}\u001b[22m`;
    const cases: [number, Segment[]][] = [
      [40, [{ x: 0, line: `\u001b[1m\u001b[33m❯ fix the tree\u001b[39m\u001b[22m` }, { x: 30, line: dim("8mo  12") }]],
      [20, [{ x: 0, line: "日本語のタイトル" }, { x: 19, line: "│" }]],
      [10, [{ x: -2, line: "abcdef" }, { x: 8, line: "wide 日本" }]],
      [10, [{ x: 3, line: "" }, { x: 12, line: "far" }]],
      [6, [{ x: 0, line: "\u001b[31mred" }, { x: 1, line: "\u001b[0m" }]],
    ];
    for (const [width, segs] of cases) expect(composeRow(width, segs)).toBe(inkRow(width, segs));
  });

  it("still gives Ink's text for a line seen before, after its cache of lines was started afresh", () => {
    const segs = (i: number) => [{ x: 1, line: `\u001b[36mline ${i} 日本\u001b[39m` }];
    const first = composeRow(20, segs(0));
    expect(first).toBe(inkRow(20, segs(0)));
    // More distinct lines than the cache holds: it is cleared on the way.
    for (let i = 1; i <= 4100; i++) composeRow(20, segs(i));
    expect(composeRow(20, segs(0))).toBe(first);
    expect(composeRow(20, segs(4100))).toBe(inkRow(20, segs(4100)));
  });
});

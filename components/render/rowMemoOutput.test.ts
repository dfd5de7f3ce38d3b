import fc from "fast-check";
import { describe, expect, it } from "vitest";
// Ink's own Output class is the reference (it is not among Ink's exports, hence the path).
import InkOutput from "../../node_modules/ink/build/output.js";
import { composeRow } from "./composeRow.js";
import { rowSegments, withRowMemo, type Clip, type Operation, type OutputClass, type Transformer } from "./rowMemoOutput.js";

const Ink = InkOutput as unknown as OutputClass;

const red = (s: string) => `\u001b[31m${s}\u001b[39m`;
const bold = (s: string) => `\u001b[1m${s}\u001b[22m`;
const piece = fc.constantFrom("a", "bc", "héllo", "e\u0301", "日本", "🚀", "│", "❯ ", " ", "…", "👍🏽", "x".repeat(12));
const styledPiece = fc.tuple(piece, fc.constantFrom("plain", "red", "bold")).map(([p, s]) => (s === "red" ? red(p) : s === "bold" ? bold(p) : p));
const line = fc.array(styledPiece, { maxLength: 5 }).map((ps) => ps.join(""));
const text = fc.array(line, { minLength: 1, maxLength: 4 }).map((ls) => ls.join("\n"));
const transformers: Record<string, Transformer[]> = {
  none: [],
  colour: [(l) => red(l)],
  indexed: [(l, i) => `${i}${l}`, (l) => bold(l)],
};

function operation(width: number, height: number) {
  const write = fc
    .record({ x: fc.integer({ min: -3, max: width + 3 }), y: fc.integer({ min: -2, max: height + 2 }), text, t: fc.constantFrom("none", "colour", "indexed") })
    .map(({ x, y, text, t }) => ({ type: "write" as const, x, y, text, transformers: transformers[t] }));
  const clip = fc
    .record({ x1: fc.integer({ min: -1, max: width }), w: fc.integer({ min: 0, max: width }), y1: fc.integer({ min: -1, max: height }), h: fc.integer({ min: 0, max: height }), axes: fc.constantFrom("both", "x", "y") })
    .map(({ x1, w, y1, h, axes }): Operation => {
      const c: Clip = {};
      if (axes !== "y") Object.assign(c, { x1, x2: x1 + w });
      if (axes !== "x") Object.assign(c, { y1, y2: y1 + h });
      return { type: "clip", clip: c };
    });
  return fc.oneof({ arbitrary: write, weight: 4 }, { arbitrary: clip, weight: 1 }, { arbitrary: fc.constant({ type: "unclip" as const }), weight: 1 });
}

const frame = fc
  .record({ width: fc.integer({ min: 1, max: 30 }), height: fc.integer({ min: 1, max: 8 }) })
  .chain(({ width, height }) => fc.record({ width: fc.constant(width), height: fc.constant(height), ops: fc.array(operation(width, height), { maxLength: 10 }) }));

function draw(Output: OutputClass, f: { width: number; height: number; ops: Operation[] }): string {
  const o = new Output({ width: f.width, height: f.height });
  for (const op of f.ops) {
    if (op.type === "write") o.write(op.x, op.y, op.text, { transformers: op.transformers });
    else if (op.type === "clip") o.clip(op.clip);
    else o.unclip();
  }
  return o.get().output;
}

describe("withRowMemo", () => {
  it("draws every frame exactly as Ink's Output does", () => {
    const Memo = withRowMemo(Ink);
    fc.assert(
      fc.property(frame, (f) => {
        expect(draw(Memo, f)).toBe(draw(Ink, f));
      }),
      { numRuns: 1500 },
    );
  });

  it("stays exact across a run of frames, where unchanged rows come from the memo", () => {
    fc.assert(
      fc.property(fc.array(frame, { minLength: 2, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 6 }), (frames, repeats) => {
        const Memo = withRowMemo(Ink);
        // Frames repeat and alternate, as a cursor moving back and forth would make them.
        const sequence = [...frames, ...repeats.map((r) => frames[r % frames.length])];
        for (const f of sequence) expect(draw(Memo, f)).toBe(draw(Ink, f));
      }),
      { numRuns: 300 },
    );
  });

  it("redraws only the rows whose segments changed", () => {
    let drawn = 0;
    const Memo = withRowMemo(Ink, (width, segs) => {
      drawn++;
      return composeRow(width, segs);
    });
    const rows = (sel: number) => ({ width: 20, height: 5, ops: [0, 1, 2, 3, 4].map((y): Operation => ({ type: "write", x: 0, y, text: `${y === sel ? "❯" : " "} row ${y}`, transformers: [] })) });
    draw(Memo, rows(0));
    expect(drawn).toBe(5);
    drawn = 0;
    expect(draw(Memo, rows(1))).toBe(draw(Ink, rows(1)));
    expect(drawn).toBe(2);
  });
});

describe("rowSegments", () => {
  it("drops a write that starts above the top, as Ink does", () => {
    const ops: Operation[] = [{ type: "write", x: 0, y: -1, text: "a\nb\nc", transformers: [] }];
    expect(rowSegments(ops, 3)).toEqual([[], [], []]);
  });

  it("slices lines to the clip and moves them to its edge", () => {
    const ops: Operation[] = [
      { type: "clip", clip: { x1: 2, x2: 5, y1: 1, y2: 2 } },
      { type: "write", x: 0, y: 0, text: "abcdefg\nhijklmn\nopq", transformers: [] },
      { type: "unclip" },
    ];
    expect(rowSegments(ops, 3)).toEqual([[], [{ x: 2, line: "jkl" }], []]);
  });
});

import { describe, expect, it } from "vitest";
import { BSU, ESU, frameSplitter } from "./frames.js";

const run = (...chunks: string[]) => {
  const split = frameSplitter();
  return chunks.flatMap((c) => split(c));
};

describe("frameSplitter", () => {
  it("marks text outside a synchronized update whole, and inside it whole only at its end", () => {
    expect(run(`a${BSU}b`, `c${ESU}d`)).toEqual([
      { text: `a${BSU}`, whole: true },
      { text: "b", whole: false },
      { text: `c${ESU}`, whole: true },
      { text: "d", whole: true },
    ]);
  });
  it("holds a mark cut across two reads until the rest arrives", () => {
    const pieces = run(`x${BSU}frame\x1b[?20`, `26lafter`);
    expect(pieces).toEqual([
      { text: `x${BSU}`, whole: true },
      { text: "frame", whole: false },
      { text: `${ESU}`, whole: true },
      { text: "after", whole: true },
    ]);
    expect(pieces.map((p) => p.text).join("")).toBe(`x${BSU}frame${ESU}after`);
  });
  it("loses no byte however the output is cut", () => {
    const out = `top${BSU}\x1b[2Jrow 1\r\nrow 2${ESU}\x1b[?2026${BSU}next${ESU}`;
    for (let i = 0; i <= out.length; i++) {
      const pieces = run(out.slice(0, i), out.slice(i));
      expect(pieces.map((p) => p.text).join("")).toBe(out);
      // never whole in the middle of a frame
      let seen = "";
      for (const p of pieces) {
        seen += p.text;
        const opens = seen.split(BSU).length - 1;
        const closes = seen.split(ESU).length - 1;
        if (p.whole) expect(opens).toBe(closes + (seen.endsWith(BSU) ? 1 : 0));
      }
    }
  });
});

import { describe, expect, it } from "vitest";
import { safeJson, writeJsonArray } from "./json.js";

/** What writeJsonArray writes, joined, and in how many pieces. */
function written<T>(items: T[]): { text: string; pieces: number } {
  const parts: string[] = [];
  writeJsonArray(
    items,
    (x) => x,
    (t) => parts.push(t),
  );
  return { text: parts.join(""), pieces: parts.length };
}

describe("writeJsonArray", () => {
  it("writes exactly what safeJson writes for the whole array", () => {
    const samples: unknown[][] = [
      [],
      [{ a: 1 }],
      [{ a: "line\nbreak", b: [1, { c: null }], d: {} }, [], "x", 2],
      [{ csi: "\u009b31m", tab: "\t", emoji: "🚀", nested: { deep: [{ e: [] }] } }],
    ];
    for (const s of samples) expect(written(s).text).toBe(`${safeJson(s)}\n`);
  });

  it("hands the text over in pieces of about a megabyte, not as one string", () => {
    const many = Array.from({ length: 4000 }, (_, i) => ({ i, text: "x".repeat(600) }));
    const { text, pieces } = written(many);
    expect(text).toBe(`${safeJson(many)}\n`);
    expect(pieces).toBeGreaterThan(1);
  });
});

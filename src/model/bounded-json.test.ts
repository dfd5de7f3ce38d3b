import { describe, expect, it } from "vitest";
import { compactJson, CUT_NOTE, depthOf, limitDepth } from "./bounded-json.js";

function nested(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

describe("bounded JSON", () => {
  it("compactJson is JSON.stringify for small values, cut with … past max", () => {
    const v = { command: ["ls", "-la"], n: 1, s: 'x"y', deep: { b: [true, null] } };
    expect(compactJson(v)).toBe(JSON.stringify(v));
    expect(compactJson({ s: "x".repeat(500) }, 20)).toBe(`{"s":"${"x".repeat(14)}…`);
  });
  it("walks 200,000 levels without overflowing the stack", () => {
    const v = nested(200_000);
    expect(depthOf(v)).toBeGreaterThan(500);
    expect(compactJson(v, 30)).toBe(`${'{"a":'.repeat(6)}…`);
    const cut = limitDepth(v);
    expect(() => JSON.stringify(cut)).not.toThrow();
    expect(JSON.stringify(cut)).toContain(CUT_NOTE);
    expect(depthOf(cut)).toBe(500);
  });
  it("leaves values within the limit as they are (the same object)", () => {
    const v = nested(10);
    expect(limitDepth(v)).toBe(v);
  });

  it('keeps a "__proto__" key of a value it cuts as an own property', () => {
    const v = JSON.parse('{"__proto__":{"deep":{"deeper":1}},"b":2}') as object;
    const cut = limitDepth(v, 2) as Record<string, unknown>;
    expect(Object.keys(cut)).toEqual(["__proto__", "b"]);
    expect(Object.getPrototypeOf(cut)).toBe(Object.prototype);
  });
});

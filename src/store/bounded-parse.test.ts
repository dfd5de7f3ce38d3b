import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseBounded } from "./bounded-parse.js";

const parse = (s: string, maxItems = 64, maxString = 16 * 1024) => {
  const b = Buffer.from(s);
  return parseBounded(b, 0, b.length, { maxItems, maxString });
};

describe("parseBounded", () => {
  it("is JSON.parse for values within its bounds", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => {
        const text = JSON.stringify(v);
        expect(parse(text, 1000, 1 << 20)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });
  it('keeps a "__proto__" key as an own property, as JSON.parse does', () => {
    const text = '{"__proto__":0,"a":{"__proto__":{"x":1}}}';
    expect(parse(text)).toEqual(JSON.parse(text));
    expect(Object.keys(parse(text) as object)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(parse(text))).toBe(Object.prototype);
  });
  it("keeps the first items of long arrays and objects, and the start of long strings", () => {
    const big = {
      type: "message",
      message: {
        role: "assistant",
        content: Array.from({ length: 5000 }, (_, i) => ({ type: "text", text: `block ${i}` })),
        usage: { input: 5 },
      },
      after: 1,
    };
    const v = parse(JSON.stringify(big), 3) as typeof big;
    expect(v.message.content).toEqual(big.message.content.slice(0, 3));
    expect(v.message.usage).toEqual({ input: 5 });
    expect(v.after).toBe(1);
    expect(parse(JSON.stringify({ s: "é".repeat(100) + "\\n" }), 64, 10)).toEqual({ s: "é".repeat(10) });
  });
  it("refuses what is not JSON", () => {
    for (const bad of ['{"a":', '{"a" 1}', "[1,2", '{"a":"x}', "{} x"]) expect(() => parse(bad)).toThrow(SyntaxError);
  });
});

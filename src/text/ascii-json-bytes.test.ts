import { describe, expect, it } from "vitest";
import { asciiJson } from "./ascii-json.js";
import { asciiJsonBytes } from "./ascii-json-bytes.js";

const same = (v: unknown) => expect(asciiJsonBytes(v).toString("latin1")).toBe(asciiJson(v));

describe("asciiJsonBytes", () => {
  it("is asciiJson's text, long arrays made a slice at a time", () => {
    const long = Array.from({ length: 5000 }, (_, i) =>
      i % 7 === 0 ? null : i % 3 ? { name: `café ${i} 🚀`, n: [i, 1.5] } : `研究 ${i}\u2028`,
    );
    same(long);
    same(long.slice(0, 2049));
    same(long.slice(0, 2048));
    same([]);
    same({ n: 3, gen: "g", path: long, shape: [1, -1], empty: {}, dates: [new Date(0)] });
    // Keys of any text; what JSON drops, dropped.
    same({ 'a"\n': long, é: 1, u: undefined, f: () => 1, nul: null });
    same({});
    same({ only: undefined });
    same("x\u009b");
    same(12.5);
    same({ at: new Date(0), t: { toJSON: () => "j" } });
    expect(asciiJsonBytes(long, "g1\n").toString("latin1")).toBe("g1\n" + asciiJson(long));
  });
});

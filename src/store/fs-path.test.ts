import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { decodeName, fsPath } from "./fs-path.js";

describe("decodeName / fsPath", () => {
  it("leaves UTF-8 names as they are", () => {
    expect(decodeName(Buffer.from("研究 naïve 🚀.jsonl"))).toBe("研究 naïve 🚀.jsonl");
    expect(fsPath("/a/研究 🚀.jsonl")).toBe("/a/研究 🚀.jsonl");
  });
  it("keeps a Latin-1 name's bytes: each bad byte a lone surrogate, back to the same bytes", () => {
    const bytes = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x6a, 0x73, 0x6f, 0x6e, 0x6c]); // "caf\xe9.jsonl"
    const name = decodeName(bytes);
    expect(name).toBe("caf\udce9.jsonl");
    expect(fsPath(`/s/${name}`)).toEqual(Buffer.concat([Buffer.from("/s/"), bytes]));
  });
  it("round-trips any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (arr) => {
        const bytes = Buffer.from(arr);
        const name = decodeName(bytes);
        const back = fsPath(name);
        expect(Buffer.isBuffer(back) ? back : Buffer.from(back)).toEqual(bytes);
      }),
      { numRuns: 2000 },
    );
  });
});

import { describe, expect, it } from "vitest";
import { unpackRows } from "../../test/helpers/packed-rows.js";
import { RowPacker, type TextRows } from "./text-rows.js";

const rowsOf = (texts: string[]): TextRows => ({
  offs: texts.map((_, i) => i * 70_000_000_000),
  lens: texts.map((t) => 3 * t.length + 7),
  tools: texts.map((_, i) => i % 2),
  texts,
  chars: texts.reduce((n, t) => n + t.length, 0),
});

describe("packed rows (a text reader's reply)", () => {
  it("come back as packed, each file's from where it starts, through the buffer's growth", () => {
    const a = rowsOf(["naïve café", "", "日本語のテキスト", "emoji 😀 and \u0301 combining", "x".repeat(5000)]);
    const b = rowsOf(["Grüße", "ς σ ſ", "plain ascii"]);
    const packer = new RowPacker(Buffer.allocUnsafeSlow(8));
    packer.add(a);
    const at = packer.pos;
    packer.add(b);
    expect(packer.buf.length).toBeGreaterThan(8);
    expect(unpackRows(packer.buf, { at: 0, count: a.texts.length, chars: a.chars })).toEqual(a);
    expect(unpackRows(packer.buf, { at, count: b.texts.length, chars: b.chars })).toEqual(b);
  });

  it("a lone surrogate comes back as U+FFFD: what SQLite is given for it either way (a string is bound as UTF-8)", () => {
    const packer = new RowPacker(Buffer.allocUnsafeSlow(64));
    packer.add(rowsOf(["a\ud800b"]));
    expect(unpackRows(packer.buf, { at: 0, count: 1, chars: 0 }).texts).toEqual([
      Buffer.from("a\ud800b", "utf8").toString("utf8"),
    ]);
  });
});

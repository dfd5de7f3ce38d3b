import { describe, expect, it } from "vitest";
import { asciiJson } from "../text/ascii-json.js";
import { elementBounds, JsonColumn, ROWS_BEFORE_WHOLE } from "./json-column.js";

/** A column as the snapshot writes it: a prefix line, then the ASCII JSON array. */
function column(values: unknown[], prefix = "gen\n"): { bytes: Uint8Array; from: number } {
  return { bytes: Buffer.from(prefix + asciiJson(values), "latin1"), from: prefix.length };
}

const awkward: unknown[] = [
  "plain",
  'a "quoted" word, [bracket] {brace}',
  "ends in a backslash \\",
  'backslash then quote \\"',
  "café 研究 🚀 \u009b\u001b[31m",
  null,
  0,
  -1.5e-7,
  true,
  [],
  {},
  [{ day: "2026-01-01", model: "m,]}", input: 1 }, { cost: null }],
  { input: 2, nested: { a: [1, [2, "]"]] } },
  "",
];

describe("a snapshot column read row by row", () => {
  it("finds each element where JSON.parse of the whole column puts it", () => {
    const { bytes, from } = column(awkward);
    const at = elementBounds(bytes, from, awkward.length)!;
    const text = Buffer.from(bytes).toString("latin1");
    awkward.forEach((v, i) => expect(JSON.parse(text.slice(at[2 * i], at[2 * i + 1]))).toEqual(v));
  });

  it("refuses a column of another length, or no array", () => {
    const { bytes, from } = column(awkward);
    expect(elementBounds(bytes, from, awkward.length - 1)).toBeUndefined();
    expect(elementBounds(bytes, from, awkward.length + 1)).toBeUndefined();
    expect(elementBounds(Buffer.from("gen\n{}"), 4, 0)).toBeUndefined();
    expect(elementBounds(Buffer.from("gen\n[]"), 4, 0)).toEqual(new Int32Array(0));
    expect(elementBounds(Buffer.from("gen\n[]"), 4, 1)).toBeUndefined();
  });

  it("gives each row's value, the same object once the column is parsed whole", () => {
    const { bytes, from } = column(awkward);
    const c = new JsonColumn(bytes, from, awkward.length);
    const early = c.at(11);
    expect(early).toEqual(awkward[11]);
    expect(c.at(11)).toBe(early);
    const all = c.all();
    expect(all).toEqual(awkward);
    expect(all[11]).toBe(early);
    expect(c.at(12)).toBe(all[12]);
  });

  it("parses the column whole once many rows were asked for", () => {
    const values = Array.from({ length: ROWS_BEFORE_WHOLE + 10 }, (_, i) => ({ i }));
    const { bytes, from } = column(values);
    const c = new JsonColumn(bytes, from, values.length);
    for (let i = 0; i < values.length; i++) expect(c.at(i)).toEqual({ i });
    // The whole column, with the rows handed out before in it.
    const first = c.at(0);
    expect(c.all()[0]).toBe(first);
  });

  it("says what is wrong with a damaged column (JSON.parse's error)", () => {
    const bytes = Buffer.from('gen\n["a", "b"');
    const c = new JsonColumn(bytes, 4, 2);
    expect(() => c.at(0)).toThrow();
  });
});

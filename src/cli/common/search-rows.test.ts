import { describe, expect, it } from "vitest";
import { decodeSearchRows, encodeSearchRows, type SearchRow } from "./search-rows.js";

const row = (over: Partial<SearchRow> = {}): SearchRow => ({
  path: "/s/--p--/a.jsonl",
  id: "019e-a",
  name: "auth refactor",
  firstMessage: "fix the login",
  cwd: "/p",
  models: ["claude-x"],
  labelCount: 1,
  labels: ["keep"],
  modified: new Date("2026-11-20T10:00:00.000Z"),
  bytes: 1234,
  mtimeMs: 1795600000000.5,
  ...over,
});

describe("search rows", () => {
  it("read back as written: absent name and labels stay absent, an invalid date stays invalid", () => {
    const rows = [
      row(),
      row({ path: "/s/b.jsonl", name: undefined, labels: undefined, labelCount: 0, modified: new Date(NaN) }),
      row({ path: "/s/c.jsonl", name: "", models: [] }),
    ];
    delete rows[1].name;
    delete rows[1].labels;
    const back = decodeSearchRows(encodeSearchRows(rows))!;
    expect(back).toEqual(rows);
    expect("name" in back[1]).toBe(false);
    expect("labels" in back[1]).toBe(false);
    expect(Number.isNaN(back[1].modified.getTime())).toBe(true);
    expect(back[2].name).toBe("");
  });

  it("keeps any text as it was: accents, emoji, a lone surrogate, escapes, NUL", () => {
    const text = "naïve Grüße 函数 🚀 \ud800 \x1b[2J\u009b \0 end";
    const back = decodeSearchRows(encodeSearchRows([row({ firstMessage: text, cwd: "/tmp/ü", name: text })]))!;
    expect(back[0].firstMessage).toBe(text);
    expect(back[0].name).toBe(text);
    expect(back[0].cwd).toBe("/tmp/ü");
  });

  it("is written as ASCII (read back without decoding UTF-8)", () => {
    const bytes = encodeSearchRows([row({ firstMessage: "café 🚀" })]);
    expect([...bytes].every((b) => b < 0x80)).toBe(true);
  });

  it("reads nothing from a value that is not rows of this layout (the command scans instead)", () => {
    expect(decodeSearchRows(Buffer.from("not json"))).toBeUndefined();
    expect(decodeSearchRows(Buffer.from(JSON.stringify({ v: 999, path: [] })))).toBeUndefined();
    const good = JSON.parse(Buffer.from(encodeSearchRows([row()])).toString("latin1")) as Record<string, unknown[]>;
    // A column shorter than the rows: damaged, not trusted.
    expect(decodeSearchRows(Buffer.from(JSON.stringify({ ...good, id: [] })))).toBeUndefined();
    expect(decodeSearchRows(new Uint8Array(0))).toBeUndefined();
  });
});

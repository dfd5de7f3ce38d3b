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

/** The discovered files' paths (a row's path is its place among them). */
const PATHS = ["/s/--p--/a.jsonl", "/s/b.jsonl", "/s/c.jsonl"];

describe("search rows", () => {
  it("read back as written: absent name and labels stay absent, an invalid date stays invalid", () => {
    const rows = [
      row(),
      row({ path: "/s/b.jsonl", name: undefined, labels: undefined, labelCount: 0, modified: new Date(NaN) }),
      row({ path: "/s/c.jsonl", name: "", models: [] }),
    ];
    delete rows[1].name;
    delete rows[1].labels;
    const back = decodeSearchRows(encodeSearchRows(rows, PATHS), PATHS)!;
    expect(back).toEqual(rows);
    expect("name" in back[1]).toBe(false);
    expect("labels" in back[1]).toBe(false);
    expect(Number.isNaN(back[1].modified.getTime())).toBe(true);
    expect(back[2].name).toBe("");
  });

  it("keeps any text as it was: accents, emoji, a lone surrogate, escapes, NUL", () => {
    const text = "naïve Grüße 函数 🚀 \ud800 \x1b[2J\u009b \0 end";
    const back = decodeSearchRows(
      encodeSearchRows([row({ firstMessage: text, cwd: "/tmp/ü", name: text })], PATHS),
      PATHS,
    )!;
    expect(back[0].firstMessage).toBe(text);
    expect(back[0].name).toBe(text);
    expect(back[0].cwd).toBe("/tmp/ü");
  });

  it("is written as ASCII (read back without decoding UTF-8)", () => {
    const bytes = encodeSearchRows([row({ firstMessage: "café 🚀" })], PATHS);
    expect([...bytes].every((b) => b < 0x80)).toBe(true);
  });

  it("reads nothing from a value that is not rows of this layout (the command scans instead)", () => {
    expect(decodeSearchRows(Buffer.from("not json"), PATHS)).toBeUndefined();
    expect(decodeSearchRows(Buffer.from(JSON.stringify({ v: 999, path: [] })), PATHS)).toBeUndefined();
    const good = JSON.parse(Buffer.from(encodeSearchRows([row()], PATHS)).toString("latin1")) as Record<
      string,
      unknown[]
    >;
    // A column shorter than the rows: damaged, not trusted.
    expect(decodeSearchRows(Buffer.from(JSON.stringify({ ...good, id: [] })), PATHS)).toBeUndefined();
    // A place past the paths or the folders: not trusted either.
    expect(decodeSearchRows(Buffer.from(JSON.stringify({ ...good, file: [99] })), PATHS)).toBeUndefined();
    expect(decodeSearchRows(Buffer.from(JSON.stringify({ ...good, cwd: [5] })), PATHS)).toBeUndefined();
    expect(decodeSearchRows(new Uint8Array(0), PATHS)).toBeUndefined();
  });
});

describe("search rows' paths and shared values", () => {
  it("name each row's file by its place among the discovered paths, and keep a path that is not among them", () => {
    const rows = [row({ path: "/s/c.jsonl" }), row({ path: "/elsewhere/x.jsonl" }), row()];
    const back = decodeSearchRows(encodeSearchRows(rows, PATHS), PATHS)!;
    expect(back.map((r) => r.path)).toEqual(["/s/c.jsonl", "/elsewhere/x.jsonl", "/s/--p--/a.jsonl"]);
  });

  it("write a folder and a model list shared by many rows once", () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      row({ path: `/s/${i}.jsonl`, cwd: "/a/rather/long/folder/name/of/a/project", models: ["claude-sonnet-4-5"] }),
    );
    const text = Buffer.from(encodeSearchRows(many, [])).toString("latin1");
    expect(text.split("/a/rather/long/folder").length - 1).toBe(1);
    expect(text.split("claude-sonnet-4-5").length - 1).toBe(1);
    const back = decodeSearchRows(encodeSearchRows(many, []), [])!;
    expect(back).toEqual(many);
  });
});

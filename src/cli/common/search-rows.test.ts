import { describe, expect, it, vi } from "vitest";
import { fieldTextOf } from "../../search/field-text.js";
import {
  decodeSearchRows,
  encodeSearchRows,
  rowsStillTrue,
  type KeptSearchRows,
  type SearchRow,
} from "./search-rows.js";
import { KeptSearchRow, modifiedTime } from "./kept-search-row.js";

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

const FIELDS = [
  "path",
  "id",
  "name",
  "firstMessage",
  "cwd",
  "models",
  "labelCount",
  "labels",
  "modified",
  "bytes",
  "mtimeMs",
  "ctimeMs",
] as const;

/** A row's fields as a plain object, those it lacks (undefined) left out: what a search reads of it. */
function fields(r: SearchRow): Partial<SearchRow> {
  const out: Record<string, unknown> = {};
  for (const k of FIELDS) if (r[k] !== undefined) out[k] = r[k];
  return out as Partial<SearchRow>;
}
const allFields = (rows: readonly SearchRow[]) => rows.map(fields);
const inodes = (k: KeptSearchRows) => k.rows.map((_, i) => k.inoAt(i));

/** The discovered files (their inodes are kept with the rows). */
const FILES = [
  { path: "/s/--p--/a.jsonl", bytes: 1234, mtimeMs: 1795600000000.5, ino: 11 },
  { path: "/s/b.jsonl", bytes: 1234, mtimeMs: 1795600000000.5, ino: 12 },
  { path: "/s/c.jsonl", bytes: 1234, mtimeMs: 1795600000000.5 },
];

describe("search rows", () => {
  it("read back as written: absent name and labels stay absent, an invalid date stays invalid", () => {
    const rows = [
      row(),
      row({ path: "/s/b.jsonl", name: undefined, labels: undefined, labelCount: 0, modified: new Date(NaN) }),
      row({ path: "/s/c.jsonl", name: "", models: [] }),
    ];
    delete rows[1].name;
    delete rows[1].labels;
    const kept = decodeSearchRows(encodeSearchRows(rows, FILES))!;
    const back = kept.rows;
    expect(allFields(back)).toEqual(allFields(rows));
    expect(inodes(kept)).toEqual([11, 12, undefined]);
    expect(back[1].name).toBeUndefined();
    expect(back[1].labels).toBeUndefined();
    expect(Number.isNaN(back[1].modified.getTime())).toBe(true);
    expect(back[2].name).toBe("");
  });

  it("carry the stamp they were kept with, a new one each time unless given (what is kept by their places is read with it)", () => {
    const rows = [row(), row({ path: "/s/b.jsonl" })];
    expect(decodeSearchRows(encodeSearchRows(rows, FILES, undefined, "0123abcd"))!.stamp).toBe("0123abcd");
    const [a, b] = [encodeSearchRows(rows, FILES), encodeSearchRows(rows, FILES)].map(
      (v) => decodeSearchRows(v)!.stamp,
    );
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(b).not.toBe(a);
  });

  it("makes no row's fields until they are read: a row holds nothing of its own, and reads the same twice", () => {
    const rows = [row(), row({ path: "/s/b.jsonl", firstMessage: "函数 🚀 \ud800", name: undefined })];
    const back = decodeSearchRows(encodeSearchRows(rows, FILES))!.rows;
    for (const r of back) expect(Object.keys(r)).toEqual([]);
    // No first message is decoded until one is read, and then that one only.
    const decoded = vi.spyOn(Buffer.prototype, "toString");
    expect(back[0].path).toBe(rows[0].path);
    expect(decoded).not.toHaveBeenCalled();
    expect(back[1].firstMessage).toBe(rows[1].firstMessage);
    expect(decoded).toHaveBeenCalledTimes(1);
    decoded.mockRestore();
    expect(allFields(back)).toEqual(allFields(rows));
    // A date read again is the same one (a search sorts by it many times).
    expect(back[0].modified).toBe(back[0].modified);
    expect(back[1].firstMessage).toBe("函数 🚀 \ud800");
  });

  it("tells a row's modified time without making its Date (a search checks every row's), as the Date would", () => {
    const rows = [row(), row({ path: "/s/b.jsonl", modified: new Date(NaN) })];
    const back = decodeSearchRows(encodeSearchRows(rows, FILES))!.rows;
    const made = vi.spyOn(KeptSearchRow.prototype, "modified", "get");
    const times = back.map(modifiedTime);
    expect(made).not.toHaveBeenCalled();
    made.mockRestore();
    expect(times).toEqual([rows[0].modified.getTime(), NaN]);
    expect(times).toEqual(back.map((r) => r.modified.getTime()));
    expect(rows.map(modifiedTime)).toEqual(times);
  });

  it("tells a damaged kept time as its Date would: a fraction cut off, one past a Date's range invalid", () => {
    // A Date's time is always whole and in range: only a damaged kept value is not.
    const kept = (t: number) => row({ path: `/s/${t}.jsonl`, modified: { getTime: () => t } as Date });
    const back = decodeSearchRows(
      encodeSearchRows([kept(1.5), kept(-1.5), kept(-0.5), kept(8.64e15), kept(1e16), kept(-1e16)], FILES),
    )!.rows;
    const times = back.map(modifiedTime);
    expect(times).toEqual([1, -1, 0, 8.64e15, NaN, NaN]);
    expect(times).toEqual(back.map((r) => r.modified.getTime()));
  });

  it("keeps any text as it was: accents, emoji, a lone surrogate, escapes, NUL", () => {
    const text = "naïve Grüße 函数 🚀 \ud800 \x1b[2J\u009b \0 end";
    const back = decodeSearchRows(
      encodeSearchRows([row({ firstMessage: text, cwd: "/tmp/ü", name: text })], FILES),
    )!.rows;
    expect(back[0].firstMessage).toBe(text);
    expect(back[0].name).toBe(text);
    expect(back[0].cwd).toBe("/tmp/ü");
  });

  it("is written as ASCII (read back without decoding UTF-8), then the numbers as floats, then the fields folded, the first messages and the files' names", () => {
    const rows = [row({ firstMessage: "Café 🚀" }), row({ path: "/s/b.jsonl", name: undefined, cwd: "/Ü" })];
    const bytes = Buffer.from(encodeSearchRows(rows, FILES));
    const eol = bytes.indexOf(0x0a);
    expect([...bytes.subarray(0, eol)].every((b) => b < 0x80)).toBe(true);
    // Five floats a row: inode, date, size, mtime, ctime; then the field text and the first
    // messages (UTF-16: they hold an emoji) and the names (Latin-1).
    const at = eol + 1 + 5 * 8 * rows.length;
    const namesAt = bytes.length - "a.jsonlb.jsonl".length;
    expect(bytes.toString("utf16le", at, namesAt)).toBe(fieldTextOf(rows).text + "Café 🚀fix the login");
    expect(bytes.toString("latin1", namesAt)).toBe("a.jsonlb.jsonl");
    expect(decodeSearchRows(bytes)!.fieldText).toEqual(fieldTextOf(rows));
    // Neither first message nor any file's name is in the JSON.
    expect(bytes.toString("latin1", 0, eol)).not.toMatch(/Caf|login|jsonl/);
  });

  it("writes each text as Latin-1 (a byte a character) when it fits, else as UTF-16", () => {
    const textOf = (rows: SearchRow[]) => {
      const b = Buffer.from(encodeSearchRows(rows, FILES));
      return b.length - b.indexOf(0x0a) - 1 - 5 * 8 * rows.length;
    };
    const messages = (rows: SearchRow[]) => rows.map((r) => r.firstMessage).join("").length;
    const names = (rows: SearchRow[]) => rows.map((r) => r.path.split("/").pop()!).join("").length;
    const cases = [
      // All Latin-1.
      { rows: [row({ firstMessage: "naïve Grüße", name: "Ü" }), row({ path: "/s/b.jsonl" })], width: [1, 1, 1] },
      // CJK in a first message: the field text and the first messages UTF-16, the names Latin-1.
      { rows: [row({ firstMessage: "naïve 函数", name: "Ü" }), row({ path: "/s/b.jsonl" })], width: [2, 2, 1] },
      // A name past Latin-1 (and in no field): the names UTF-16.
      { rows: [row({ path: "/s/函.jsonl" }), row({ path: "/s/b.jsonl" })], width: [1, 1, 2] },
      // A lone half of a surrogate pair, kept as it was.
      { rows: [row({ firstMessage: "naïve \ud800 Grüße" }), row({ path: "/s/b.jsonl" })], width: [2, 2, 1] },
    ];
    for (const { rows, width } of cases) {
      const [f, m, n] = width;
      expect(textOf(rows)).toBe(f * fieldTextOf(rows).text.length + m * messages(rows) + n * names(rows));
      const back = decodeSearchRows(encodeSearchRows(rows, FILES))!;
      expect(allFields(back.rows)).toEqual(allFields(rows));
      expect(back.fieldText).toEqual(fieldTextOf(rows));
    }
  });

  it("writes the inodes, dates, sizes and times as floats, not as JSON text, and reads them back exactly", () => {
    const rows = [
      row({ mtimeMs: 1795600000000.4648, ctimeMs: 1795600000001.25, bytes: 2 ** 40 + 3 }),
      row({ path: "/s/b.jsonl", modified: new Date(NaN) }),
    ];
    const bytes = Buffer.from(encodeSearchRows(rows, FILES));
    const json = bytes.toString("latin1", 0, bytes.indexOf(0x0a));
    expect(json).not.toMatch(/1795600000000|1099511627779|mtimeMs|ctimeMs|"ino"/);
    const back = decodeSearchRows(bytes)!;
    expect(allFields(back.rows)).toEqual(allFields(rows));
    expect(back.rows[0].ctimeMs).toBe(1795600000001.25);
    expect(back.rows[1].ctimeMs).toBeUndefined();
    expect(Number.isNaN(back.rows[1].modified.getTime())).toBe(true);
    expect(inodes(back)).toEqual([11, 12]);
  });

  it("writes an id only where the file's name does not end with it (pi names them <time>_<id>.jsonl)", () => {
    const id = "019e1e25-6b24-7bc8-a4c7-08b080d4616c";
    const rows = [
      row({ path: `/s/--p--/2026-12-30T13-09-35-990Z_${id}.jsonl`, id }),
      row({ path: "/s/--p--/renamed.jsonl", id: "019e-other" }),
      row({ path: `/s/--p--/2026-12-30T13-09-35-990Z_${id}.jsonl.bak`, id }),
      row({ path: `/s/--p--/x_${id}.jsonl`, id: "" }),
    ];
    const bytes = Buffer.from(encodeSearchRows(rows, FILES));
    const json = bytes.toString("latin1", 0, bytes.indexOf(0x0a));
    // Only as the third row's id (its name does not end with .jsonl): the names are after the JSON.
    expect(json.split(id).length - 1).toBe(1);
    expect(decodeSearchRows(bytes)!.rows.map((r) => r.id)).toEqual([id, "019e-other", id, ""]);
  });

  it("reads nothing from a value that is not rows of this layout (the command scans instead)", () => {
    expect(decodeSearchRows(Buffer.from("not json"))).toBeUndefined();
    expect(decodeSearchRows(Buffer.from(JSON.stringify({ v: 999, path: [] })))).toBeUndefined();
    const bytes = Buffer.from(encodeSearchRows([row()], FILES));
    const eol = bytes.indexOf(0x0a);
    const good = JSON.parse(bytes.toString("latin1", 0, eol)) as Record<string, unknown[]>;
    const tail = bytes.subarray(eol);
    const withJson = (c: unknown) => Buffer.concat([Buffer.from(JSON.stringify(c)), tail]);
    expect(decodeSearchRows(withJson(good))).toBeDefined();
    // A column shorter than the rows: damaged, not trusted.
    expect(decodeSearchRows(withJson({ ...good, firstMessage: [] }))).toBeUndefined();
    // First messages' lengths that do not add up to the text after the field text.
    expect(decodeSearchRows(withJson({ ...good, firstMessage: [99] }))).toBeUndefined();
    expect(decodeSearchRows(withJson({ ...good, ids: null }))).toBeUndefined();
    expect(decodeSearchRows(withJson({ ...good, folded: [] }))).toBeUndefined();
    // Names' lengths that do not add up to the value, and texts of no known width.
    expect(decodeSearchRows(withJson({ ...good, base: [99] }))).toBeUndefined();
    expect(decodeSearchRows(withJson({ ...good, encodings: ["latin1"] }))).toBeUndefined();
    expect(decodeSearchRows(withJson({ ...good, encodings: ["utf8", "latin1", "latin1"] }))).toBeUndefined();
    expect(decodeSearchRows(withJson({ ...good, encodings: ["utf16le", "utf16le", "utf16le"] }))).toBeUndefined();
    // A place past the path folders or the folders: not trusted either.
    expect(decodeSearchRows(withJson({ ...good, dir: [99] }))).toBeUndefined();
    expect(decodeSearchRows(withJson({ ...good, cwd: [5] }))).toBeUndefined();
    // No stamp to tie a kept coverage to (search-coverage.ts).
    expect(decodeSearchRows(withJson({ ...good, stamp: 5 }))).toBeUndefined();
    // Fewer floats than rows.
    expect(decodeSearchRows(Buffer.concat([bytes.subarray(0, eol + 1), Buffer.alloc(8)]))).toBeUndefined();
    // The rows of the layout before (no field text), and a torn field text.
    expect(decodeSearchRows(bytes.subarray(0, eol))).toBeUndefined();
    expect(decodeSearchRows(bytes.subarray(0, bytes.length - 1))).toBeUndefined();
    expect(decodeSearchRows(new Uint8Array(0))).toBeUndefined();
  });
});

describe("search rows' paths and shared values", () => {
  it("keep every path as it was, its folder written once for the rows in it", () => {
    const odd = ["/s/c.jsonl", "/elsewhere/x.jsonl", "rel.jsonl", "/s/a\\b.jsonl", "/s/ü 🚀/\ud800.jsonl", "/s/"];
    const rows = [...odd.map((path) => row({ path })), row()];
    const back = decodeSearchRows(encodeSearchRows(rows, FILES))!;
    expect(back.rows.map((r) => r.path)).toEqual([...odd, "/s/--p--/a.jsonl"]);
    expect(inodes(back)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, 11]);
    const many = Array.from({ length: 50 }, (_, i) => row({ path: `/a/rather/long/store/folder/${i}.jsonl` }));
    expect(Buffer.from(encodeSearchRows(many, [])).toString("latin1").split("/a/rather/long").length - 1).toBe(1);
  });

  it("write a folder and a model list shared by many rows once", () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      row({ path: `/s/${i}.jsonl`, cwd: "/a/rather/long/folder/name/of/a/project", models: ["claude-sonnet-4-5"] }),
    );
    const bytes = Buffer.from(encodeSearchRows(many, []));
    // In the JSON (the field text after it holds each row's folder folded).
    const text = bytes.toString("latin1", 0, bytes.indexOf(0x0a));
    expect(text.split("/a/rather/long/folder").length - 1).toBe(1);
    expect(text.split("claude-sonnet-4-5").length - 1).toBe(1);
    expect(allFields(decodeSearchRows(encodeSearchRows(many, []))!.rows)).toEqual(allFields(many));
  });
});

describe("search rows kept of the store before", () => {
  it("are still true only of a file with the same path, inode, size, mtime and ctime; the rest is to summarize", () => {
    const files = [
      { path: "/s/same.jsonl", bytes: 10, mtimeMs: 5, ctimeMs: 8, ino: 1 },
      { path: "/s/grown.jsonl", bytes: 10, mtimeMs: 5, ctimeMs: 8, ino: 2 },
      { path: "/s/touched.jsonl", bytes: 10, mtimeMs: 5, ctimeMs: 8, ino: 3 },
      { path: "/s/replaced.jsonl", bytes: 10, mtimeMs: 5, ctimeMs: 8, ino: 4 },
      { path: "/s/renamed.jsonl", bytes: 10, mtimeMs: 5, ctimeMs: 8, ino: 5 },
      { path: "/s/unknown-inode.jsonl", bytes: 10, mtimeMs: 5, ctimeMs: 8 },
      // Rewritten with its mtime put back (touch -r): only its ctime says so.
      { path: "/s/mtime-put-back.jsonl", bytes: 10, mtimeMs: 5, ctimeMs: 8, ino: 6 },
    ];
    const rows = files.map((f) => row({ path: f.path, bytes: f.bytes, mtimeMs: f.mtimeMs, ctimeMs: f.ctimeMs }));
    const kept = decodeSearchRows(encodeSearchRows(rows, files))!;
    const now = [
      files[0],
      { ...files[1], bytes: 11 },
      { ...files[2], mtimeMs: 6 },
      { ...files[3], ino: 40 },
      { ...files[4], path: "/s/renamed-to.jsonl" },
      files[5],
      { ...files[6], ctimeMs: 9 },
      { path: "/s/new.jsonl", bytes: 10, mtimeMs: 5, ctimeMs: 8, ino: 7 },
    ];
    const { rows: still, todo } = rowsStillTrue(kept, now);
    expect(still.map((r) => r.path)).toEqual(["/s/same.jsonl"]);
    expect(todo).toEqual(now.slice(1));
  });
});

import { crc32 } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { fieldTextOf, isFieldBytes, rankingContext, type FieldBytes } from "../../search/field-text.js";
import {
  decodeSearchRows,
  encodeSearchRows,
  rowsStillTrue,
  KeptRowsUnreadable,
  MESSAGE_BLOCK,
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
    const kept = decodeSearchRows(encodeSearchRows(rows, FILES).out)!;
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
    expect(decodeSearchRows(encodeSearchRows(rows, FILES, undefined, "0123abcd").out)!.stamp).toBe("0123abcd");
    const [a, b] = [encodeSearchRows(rows, FILES).out, encodeSearchRows(rows, FILES).out].map(
      (v) => decodeSearchRows(v)!.stamp,
    );
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(b).not.toBe(a);
  });

  it("makes no row's fields until they are read: a row holds nothing of its own, and reads the same twice", () => {
    const rows = [row(), row({ path: "/s/b.jsonl", firstMessage: "函数 🚀 \ud800", name: undefined })];
    const back = decodeSearchRows(encodeSearchRows(rows, FILES).out)!.rows;
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
    const back = decodeSearchRows(encodeSearchRows(rows, FILES).out)!.rows;
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
      encodeSearchRows([kept(1.5), kept(-1.5), kept(-0.5), kept(8.64e15), kept(1e16), kept(-1e16)], FILES).out,
    )!.rows;
    const times = back.map(modifiedTime);
    expect(times).toEqual([1, -1, 0, 8.64e15, NaN, NaN]);
    expect(times).toEqual(back.map((r) => r.modified.getTime()));
  });

  it("keeps any text as it was: accents, emoji, a lone surrogate, escapes, NUL", () => {
    const text = "naïve Grüße 函数 🚀 \ud800 \x1b[2J\u009b \0 end";
    const back = decodeSearchRows(
      encodeSearchRows([row({ firstMessage: text, cwd: "/tmp/ü", name: text })], FILES).out,
    )!.rows;
    expect(back[0].firstMessage).toBe(text);
    expect(back[0].name).toBe(text);
    expect(back[0].cwd).toBe("/tmp/ü");
  });

  it("is written as ASCII (read back without decoding UTF-8) padded to 8 bytes, then places and lengths as integers, the numbers as floats, then the fields folded, the files' names, a CRC per block of the first messages and the first messages", () => {
    const rows = [row({ firstMessage: "Café 🚀" }), row({ path: "/s/b.jsonl", name: undefined, cwd: "/Ü" })];
    const encoded = encodeSearchRows(rows, FILES);
    const bytes = Buffer.from(encoded.out);
    const eol = bytes.indexOf(0x0a);
    expect([...bytes.subarray(0, eol)].every((b) => b < 0x80)).toBe(true);
    // The numbers start 8-byte aligned (viewed in place when the value is).
    expect((eol + 1) % 8).toBe(0);
    // Eight integers a row (five places, three lengths), six floats (inode, date, size, mtime,
    // ctime, label count); then the field text (UTF-8: well-formed), the names (Latin-1), one
    // block's CRC and the first messages (UTF-16: they hold an emoji).
    const at = eol + 1 + (8 * 4 + 6 * 8) * rows.length;
    const field = Buffer.from(fieldTextOf(rows).text, "utf8");
    const namesAt = at + field.length;
    const crcAt = namesAt + "a.jsonlb.jsonl".length;
    expect(bytes.subarray(at, at + field.length)).toEqual(field);
    expect(bytes.toString("latin1", namesAt, crcAt)).toBe("a.jsonlb.jsonl");
    expect(bytes.readUInt32LE(crcAt)).toBe(crc32(bytes.subarray(crcAt + 4)));
    expect(bytes.toString("utf16le", crcAt + 4)).toBe("Café 🚀fix the login");
    // Where the first messages start: the first part, read and checked alone.
    expect(encoded.part).toBe(crcAt + 4);
    const back = decodeSearchRows(bytes)!.fieldText as FieldBytes;
    expect(isFieldBytes(back)).toBe(true);
    expect(back.bytes).toEqual(field);
    expect([...back.lengths]).toEqual(
      fieldTextOf(rows)
        .text.split("\0")
        .map((p) => Buffer.byteLength(p)),
    );
    // Neither first message nor any file's name is in the JSON.
    expect(bytes.toString("latin1", 0, eol)).not.toMatch(/Caf|login|jsonl/);
  });

  it("holds in its JSON only what rows share and what few rows have, not a value per row", () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        row({ path: `/s/${i}.jsonl`, id: "", name: i === 3 ? "one name" : undefined, labels: [], labelCount: i }),
      );
    const jsonOf = (rows: SearchRow[]) => {
      const b = Buffer.from(encodeSearchRows(rows, []).out);
      return b.toString("latin1", 0, b.indexOf(0x0a)).trimEnd().length;
    };
    // As long, but for the count of rows written in it.
    expect(jsonOf(many(2000)) - jsonOf(many(10))).toBe("2000".length - "10".length);
    const back = decodeSearchRows(encodeSearchRows(many(10), []).out)!.rows;
    expect(allFields(back)).toEqual(allFields(many(10)));
    expect(back.map((r) => r.name)).toEqual([undefined, undefined, undefined, "one name", ...Array(6).fill(undefined)]);
  });

  it("writes the field text as UTF-8 when it is well-formed (searched as bytes), else as UTF-16; the other texts as Latin-1 when they fit, else as UTF-16", () => {
    const textOf = (rows: SearchRow[]) => {
      const b = Buffer.from(encodeSearchRows(rows, FILES).out);
      // Less one block's CRC.
      return b.length - b.indexOf(0x0a) - 1 - (8 * 4 + 6 * 8) * rows.length - 4;
    };
    const messages = (rows: SearchRow[]) => rows.map((r) => r.firstMessage).join("").length;
    const names = (rows: SearchRow[]) => rows.map((r) => r.path.split("/").pop()!).join("").length;
    const utf8 = (rows: SearchRow[]) => Buffer.byteLength(fieldTextOf(rows).text, "utf8");
    const utf16 = (rows: SearchRow[]) => 2 * fieldTextOf(rows).text.length;
    const cases = [
      // All Latin-1.
      {
        rows: [row({ firstMessage: "naïve Grüße", name: "Ü" }), row({ path: "/s/b.jsonl" })],
        width: [1, 1],
        bytes: true,
      },
      // CJK in a first message: the first messages UTF-16, the names Latin-1.
      {
        rows: [row({ firstMessage: "naïve 函数", name: "Ü" }), row({ path: "/s/b.jsonl" })],
        width: [2, 1],
        bytes: true,
      },
      // A name past Latin-1 (and in no field): the names UTF-16.
      { rows: [row({ path: "/s/函.jsonl" }), row({ path: "/s/b.jsonl" })], width: [1, 2], bytes: true },
      // A lone half of a surrogate pair, kept as it was: the field text UTF-16 too.
      { rows: [row({ firstMessage: "naïve \ud800 Grüße" }), row({ path: "/s/b.jsonl" })], width: [2, 1], bytes: false },
    ];
    for (const { rows, width, bytes } of cases) {
      const [m, n] = width;
      expect(textOf(rows)).toBe((bytes ? utf8(rows) : utf16(rows)) + m * messages(rows) + n * names(rows));
      const back = decodeSearchRows(encodeSearchRows(rows, FILES).out)!;
      expect(allFields(back.rows)).toEqual(allFields(rows));
      expect(isFieldBytes(back.fieldText)).toBe(bytes);
      if (!bytes)
        expect(back.fieldText).toEqual({ ...fieldTextOf(rows), lengths: Int32Array.from(fieldTextOf(rows).lengths) });
      // The same holders either way.
      const ctx = rankingContext(back.fieldText, back.rows)!;
      const plain = rankingContext(fieldTextOf(rows), rows)!;
      for (const w of ["naive", "grusse", "函数", "login", "/p", "\u0001/p"])
        expect([...ctx.whereHeld(w)]).toEqual([...plain.whereHeld(w)]);
      // A lone half of a pair is not looked for as bytes: any session may hold it.
      const lone = ctx.whereHeld("\ud800");
      expect(plain.whereHeld("\ud800").every((w, i) => w === 0 || lone[i] !== 0)).toBe(true);
    }
  });

  it("writes the inodes, dates, sizes and times as floats, not as JSON text, and reads them back exactly", () => {
    const rows = [
      row({ mtimeMs: 1795600000000.4648, ctimeMs: 1795600000001.25, bytes: 2 ** 40 + 3 }),
      row({ path: "/s/b.jsonl", modified: new Date(NaN) }),
    ];
    const bytes = Buffer.from(encodeSearchRows(rows, FILES).out);
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
    const bytes = Buffer.from(encodeSearchRows(rows, FILES).out);
    const json = bytes.toString("latin1", 0, bytes.indexOf(0x0a));
    // Only as the third row's id (its name does not end with .jsonl): the names are after the JSON.
    expect(json.split(id).length - 1).toBe(1);
    expect(decodeSearchRows(bytes)!.rows.map((r) => r.id)).toEqual([id, "019e-other", id, ""]);
  });

  it("read from their first part alone, the first messages a block at a time as asked, each block checked", () => {
    const long = (i: number) => `${i} `.padEnd(30_000, "xyz");
    const rows = Array.from({ length: 6 }, (_, i) => row({ path: `/s/${i}.jsonl`, firstMessage: long(i) }));
    const { out, part } = encodeSearchRows(rows, FILES);
    const value = Buffer.from(out);
    const reads: number[] = [];
    const rest = {
      length: value.length - part,
      read: (at: number, length: number) => {
        reads.push(at);
        return Buffer.from(value.subarray(part + at, part + at + length));
      },
    };
    const back = decodeSearchRows(Buffer.from(value.subarray(0, part)), rest)!;
    expect(reads).toEqual([]);
    expect(back.rows[0].firstMessage).toBe(long(0));
    expect(reads).toEqual([0]);
    // Row 2's message spans two blocks (60,000 to 90,000).
    expect(back.rows[2].firstMessage).toBe(long(2));
    expect(reads).toEqual([0, MESSAGE_BLOCK]);
    expect(allFields(back.rows)).toEqual(allFields(rows));
    // Not as many bytes as the part says: not these rows.
    expect(
      decodeSearchRows(Buffer.from(value.subarray(0, part)), { ...rest, length: rest.length - 1 }),
    ).toBeUndefined();
    expect(decodeSearchRows(Buffer.from(value.subarray(0, part + 1)), rest)).toBeUndefined();
    // A block that is not as kept (or cannot be read) throws when one of its rows' messages is read, not before.
    const damaged = Buffer.from(value);
    damaged[damaged.length - 1] ^= 1;
    const kept = decodeSearchRows(damaged)!;
    expect(kept.rows[0].firstMessage).toBe(long(0));
    expect(() => kept.rows[5].firstMessage).toThrow(KeptRowsUnreadable);
    const gone = decodeSearchRows(Buffer.from(value.subarray(0, part)), {
      ...rest,
      read: () => {
        throw new Error("a kept answer was replaced");
      },
    })!;
    expect(gone.rows[1].path).toBe("/s/1.jsonl");
    expect(() => gone.rows[1].firstMessage).toThrow(KeptRowsUnreadable);
  });

  it("reads nothing from a value that is not rows of this layout (the command scans instead)", () => {
    expect(decodeSearchRows(Buffer.from("not json"))).toBeUndefined();
    expect(decodeSearchRows(Buffer.from(JSON.stringify({ v: 999, path: [] })))).toBeUndefined();
    const rows = [row(), row({ path: "/s/b.jsonl", name: undefined })];
    const encoded = encodeSearchRows(rows, FILES);
    const bytes = Buffer.from(encoded.out);
    const eol = bytes.indexOf(0x0a);
    const good = JSON.parse(bytes.toString("latin1", 0, eol)) as Record<string, unknown>;
    const tail = bytes.subarray(eol);
    const withJson = (c: unknown) => Buffer.concat([Buffer.from(JSON.stringify(c)), tail]);
    expect(decodeSearchRows(withJson(good))).toBeDefined();
    // The layout before, more or fewer rows than the columns hold, lists not of strings.
    expect(decodeSearchRows(withJson({ ...good, v: 10 }))).toBeUndefined();
    expect(decodeSearchRows(withJson({ ...good, n: 3 }))).toBeUndefined();
    expect(decodeSearchRows(withJson({ ...good, n: 1 }))).toBeUndefined();
    expect(decodeSearchRows(withJson({ ...good, n: -1 }))).toBeUndefined();
    expect(decodeSearchRows(withJson({ ...good, dirs: [5] }))).toBeUndefined();
    expect(decodeSearchRows(withJson({ ...good, names: null }))).toBeUndefined();
    expect(decodeSearchRows(withJson({ ...good, modelLists: [[5]] }))).toBeUndefined();
    expect(decodeSearchRows(withJson({ ...good, labelLists: ["x"] }))).toBeUndefined();
    expect(decodeSearchRows(withJson({ ...good, ids: null }))).toBeUndefined();
    expect(decodeSearchRows(withJson({ ...good, ids: { 0: 5 } }))).toBeUndefined();
    // Texts of no known width.
    expect(decodeSearchRows(withJson({ ...good, encodings: ["latin1"] }))).toBeUndefined();
    expect(decodeSearchRows(withJson({ ...good, encodings: ["latin1", "latin1", "latin1"] }))).toBeUndefined();
    expect(decodeSearchRows(withJson({ ...good, encodings: ["utf8", "utf8", "latin1"] }))).toBeUndefined();
    // The field text as UTF-16 where it is UTF-8: its lengths no longer add up to the value.
    expect(decodeSearchRows(withJson({ ...good, encodings: ["utf16le", "latin1", "latin1"] }))).toBeUndefined();
    // No stamp to tie a kept coverage to (search-coverage.ts).
    expect(decodeSearchRows(withJson({ ...good, stamp: 5 }))).toBeUndefined();
    // A place past its list (the first row's path folder; the second row's name), a length below zero.
    const withInt = (column: number, row: number, v: number) => {
      const b = Buffer.from(bytes);
      b.writeInt32LE(v, eol + 1 + 4 * (column * rows.length + row));
      return b;
    };
    expect(decodeSearchRows(withInt(0, 0, 0))).toBeDefined();
    expect(decodeSearchRows(withInt(0, 0, 99))).toBeUndefined();
    expect(decodeSearchRows(withInt(0, 0, -1))).toBeUndefined();
    expect(decodeSearchRows(withInt(4, 1, -1))).toBeDefined();
    expect(decodeSearchRows(withInt(4, 1, -2))).toBeUndefined();
    expect(decodeSearchRows(withInt(4, 1, 1))).toBeUndefined();
    expect(decodeSearchRows(withInt(6, 0, -1))).toBeUndefined();
    // Lengths that do not add up to the value: a first message's, a name's.
    expect(decodeSearchRows(withInt(6, 0, 99))).toBeUndefined();
    expect(decodeSearchRows(withInt(7, 1, 99))).toBeUndefined();
    // Fewer numbers than rows, a torn text, nothing.
    expect(decodeSearchRows(Buffer.concat([bytes.subarray(0, eol + 1), Buffer.alloc(8)]))).toBeUndefined();
    expect(decodeSearchRows(bytes.subarray(0, eol))).toBeUndefined();
    expect(decodeSearchRows(bytes.subarray(0, bytes.length - 1))).toBeUndefined();
    expect(decodeSearchRows(new Uint8Array(0))).toBeUndefined();
  });
});

describe("search rows' paths and shared values", () => {
  it("keep every path as it was, its folder written once for the rows in it", () => {
    const odd = ["/s/c.jsonl", "/elsewhere/x.jsonl", "rel.jsonl", "/s/a\\b.jsonl", "/s/ü 🚀/\ud800.jsonl", "/s/"];
    const rows = [...odd.map((path) => row({ path })), row()];
    const back = decodeSearchRows(encodeSearchRows(rows, FILES).out)!;
    expect(back.rows.map((r) => r.path)).toEqual([...odd, "/s/--p--/a.jsonl"]);
    expect(inodes(back)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, 11]);
    const many = Array.from({ length: 50 }, (_, i) => row({ path: `/a/rather/long/store/folder/${i}.jsonl` }));
    expect(Buffer.from(encodeSearchRows(many, []).out).toString("latin1").split("/a/rather/long").length - 1).toBe(1);
  });

  it("write a folder and a model list shared by many rows once", () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      row({ path: `/s/${i}.jsonl`, cwd: "/a/rather/long/folder/name/of/a/project", models: ["claude-sonnet-4-5"] }),
    );
    const bytes = Buffer.from(encodeSearchRows(many, []).out);
    // In the JSON (the field text after it holds each row's folder folded).
    const text = bytes.toString("latin1", 0, bytes.indexOf(0x0a));
    expect(text.split("/a/rather/long/folder").length - 1).toBe(1);
    expect(text.split("claude-sonnet-4-5").length - 1).toBe(1);
    expect(allFields(decodeSearchRows(encodeSearchRows(many, []).out)!.rows)).toEqual(allFields(many));
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
    const kept = decodeSearchRows(encodeSearchRows(rows, files).out)!;
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

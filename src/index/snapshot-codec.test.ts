import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  decodeIdentities,
  decodeSnapshot,
  encodeSnapshot,
  HEAD_BYTES,
  identitiesAt,
  identitiesOf,
  chunksOf,
  FIRST_CHUNK_ID,
  type SnapshotEntry,
} from "./snapshot-codec.js";

const b = (s: string) => Buffer.from(s);

const entries: SnapshotEntry[] = [
  {
    path: "/s/a.jsonl",
    ino: 1,
    size: 10,
    mtime: 1.5,
    summary: {
      path: "/s/a.jsonl",
      id: "a",
      name: "first 🚀 café 研究 \udc80\u009b",
      created: 1,
      tokens: { input: 2 },
      usage: [{ day: "d" }],
    },
    diagnostic: null,
  },
  {
    path: "/s/b.jsonl",
    ino: 2,
    size: 0,
    mtime: 2,
    summary: null,
    diagnostic: { path: "/s/b.jsonl", kind: "empty", reason: "empty" },
  },
  // No name, no usage (absent keys stay absent), a key of its own, a null value kept as null.
  {
    path: "/s/c.jsonl",
    ino: 3,
    size: 30,
    mtime: 3,
    summary: { path: "/s/c.jsonl", id: "c", created: null, extra: [1], bytes: 99, parentSessionPath: "/s/a.jsonl" },
    diagnostic: null,
  },
];

describe("the snapshot by columns", () => {
  it("gives back every identity, summary and diagnostic as they went in, missing keys missing", () => {
    const d = decodeSnapshot(encodeSnapshot(entries))!;
    expect(d.n).toBe(3);
    expect([...d.path]).toEqual(entries.map((e) => e.path));
    expect([...d.ino]).toEqual([1, 2, 3]);
    expect([...d.size]).toEqual([10, 0, 30]);
    expect([...d.mtime]).toEqual([1.5, 2, 3]);
    for (let i = 0; i < 3; i++) {
      expect(d.summary(i)).toStrictEqual(entries[i].summary);
      expect(d.diagnostic(i)).toStrictEqual(entries[i].summary ? null : entries[i].diagnostic);
    }
    expect(Object.keys(d.summary(2)!)).toEqual(["path", "id", "created", "extra", "bytes", "parentSessionPath"]);
    // Written as ASCII whatever the text holds (emoji, CJK, a lone surrogate of a non-UTF-8 file name).
    expect(Buffer.from(encodeSnapshot(entries).body).every((byte) => byte < 0x80)).toBe(true);
  });

  it("makes one row's summary from its own values alone, the same as the whole columns make it", () => {
    const { body, chunks } = encodeSnapshot(entries, "g1");
    const alone = decodeSnapshot({ body, chunks })!;
    const whole = decodeSnapshot({ body, chunks })!;
    for (let i = 0; i < 3; i++) {
      expect(alone.rowSummary(i)).toStrictEqual(whole.summary(i));
      if (alone.rowSummary(i)) expect(Object.keys(alone.rowSummary(i)!)).toEqual(Object.keys(whole.summary(i)!));
    }
    // Only some keys: the others not there (not even parsed).
    expect(alone.rowSummary(0, new Set(["path", "name"]))).toStrictEqual({
      path: "/s/a.jsonl",
      name: entries[0].summary && (entries[0].summary as { name: string }).name,
    });
    // Its column parsed whole later gives the same values.
    expect(alone.summary(0)).toStrictEqual(whole.summary(0));
  });

  it("takes summaries made one row at a time, each asked for once, as it takes them made", () => {
    const made: number[] = [];
    const lazy = entries.map((e, i) => ({
      ...e,
      summary: () => {
        made.push(i);
        return e.summary;
      },
    }));
    const d = decodeSnapshot(encodeSnapshot(lazy, "g1"))!;
    expect(made).toEqual([0, 1, 2]);
    expect([0, 1, 2].map((i) => d.summary(i))).toStrictEqual(entries.map((e) => e.summary));
    expect([0, 1, 2].map((i) => d.parent(i))).toEqual([null, null, "/s/a.jsonl"]);
    expect(d.diagnostic(1)).toStrictEqual(entries[1].diagnostic);
    expect(encodeSnapshot(lazy, "g1").chunks).toStrictEqual(encodeSnapshot(entries, "g1").chunks);
  });

  it("gives each row's list pieces back from the list text of its generation, and none from another", () => {
    const withPieces: SnapshotEntry[] = [
      { ...entries[0], pieces: [b('  {\n    "lineage": '), b(',\n    "warnings": []\n  }')] },
      entries[1],
      { ...entries[2], pieces: [b("é"), b("")] },
    ];
    const { body, chunks, list } = encodeSnapshot(withPieces, "g1");
    const d = decodeSnapshot({ body, chunks })!;
    expect(d.pieces(0, list)?.map((x) => Buffer.from(x).toString())).toEqual([
      '  {\n    "lineage": ',
      ',\n    "warnings": []\n  }',
    ]);
    expect(d.pieces(1, list)).toBeUndefined();
    expect(d.pieces(2, list)?.map((x) => Buffer.from(x).toString())).toEqual(["é", ""]);
    expect(d.pieces(0, encodeSnapshot(withPieces, "g2").list)).toBeUndefined();
    // The right generation but not the right length: not trusted.
    expect(decodeSnapshot({ body, chunks })!.pieces(0, Buffer.concat([list, gzipSync("x")]))).toBeUndefined();
  });

  it("keeps the list text gzipped, its pieces made one row at a time as it is written", () => {
    const element = (i: number) => `  {\n    "id": "${"x".repeat(400)}${i}",\n    "lineage": `;
    const made: number[] = [];
    const many: SnapshotEntry[] = Array.from({ length: 5000 }, (_, i) => ({
      ...entries[0],
      path: `/s/${i}.jsonl`,
      pieces: () => {
        made.push(i);
        return [b(element(i)), b(',\n    "warnings": []\n  }')];
      },
    }));
    const { body, chunks, list } = encodeSnapshot(many, "g1");
    expect(made).toEqual(many.map((_, i) => i));
    // Several members (a megabyte of text or less each), read back as one text.
    const text = gunzipSync(list).toString();
    expect(text.startsWith("g1\n")).toBe(true);
    expect(list.length).toBeLessThan(text.length / 4);
    const d = decodeSnapshot({ body, chunks })!;
    expect(Buffer.from(d.pieces(4321, list)![0]).toString()).toBe(element(4321));
  });

  it("reads the identities, diagnostics and parents alone, without the summaries' text", () => {
    const { body, chunks } = encodeSnapshot(entries, "g1");
    const text = Buffer.from(body).toString("latin1");
    // The summaries' text spoilt: the identities are read all the same (they are not parsed with it).
    const spoilt = Buffer.from(text.slice(0, text.lastIndexOf("\n") + 1) + "{not json", "latin1");
    const ids = decodeIdentities(spoilt)!;
    expect(ids.gen).toBe("g1");
    expect([...ids.path]).toEqual(entries.map((e) => e.path));
    expect([...ids.ino, ...ids.size, ...ids.mtime]).toEqual([1, 2, 3, 10, 0, 30, 1.5, 2, 3]);
    expect([0, 1, 2].map((i) => ids.diagnostic(i))).toEqual([null, entries[1].diagnostic, null]);
    expect([0, 1, 2].map((i) => ids.parent(i))).toEqual([null, null, "/s/a.jsonl"]);
    expect(() => decodeSnapshot({ body: spoilt, chunks })).toThrow();
    // Passed the identities already read, the whole snapshot is the same as read at once.
    expect(decodeSnapshot({ body, chunks }, decodeIdentities(body))!.summary(2)).toStrictEqual(entries[2].summary);
  });

  it("gives one key's column without parsing the others' text", () => {
    const { body, chunks } = encodeSnapshot(entries, "g1");
    const lines = Buffer.from(body).toString("latin1").split("\n");
    const head = JSON.parse(lines[2]) as { keys: string[] };
    // The usage column's text spoilt: the name column reads all the same, a summary does not.
    const usage = head.keys.indexOf("usage");
    const spoilt = [...chunks];
    spoilt[usage] = Buffer.from("g1\n" + "{not json".padEnd(chunks[usage].length - 3));
    const d = decodeSnapshot({ body, chunks: spoilt })!;
    expect(d.column("name")).toEqual([entries[0].summary!.name, null, null]);
    expect(d.column("id")).toEqual(["a", null, "c"]);
    // Read from the identities' own column (not written twice), and a key no summary has.
    expect(d.column("path")).toEqual(entries.map((e) => e.path));
    expect(d.column("nothing")).toBeUndefined();
    expect(() => d.column("usage")).toThrow();
    expect(() => d.summary(0)).toThrow();
  });

  it("keeps the columns no launch reads before whole summaries gzipped, and reads them back as they went in", () => {
    const { body, chunks } = encodeSnapshot(entries, "g1");
    const head = JSON.parse(Buffer.from(body).toString("latin1").split("\n")[2]) as { keys: string[] };
    const tokens = chunks[head.keys.indexOf("tokens")];
    // Its generation as the others have it, then gzip's magic bytes.
    expect(Buffer.from(tokens.subarray(0, 3)).toString()).toBe("g1\n");
    expect([tokens[3], tokens[4]]).toEqual([0x1f, 0x8b]);
    expect(JSON.parse(gunzipSync(tokens.subarray(3)).toString())).toEqual([{ input: 2 }, null, null]);
    // A column a launch reads (the list's, the browser's first screen's) is not.
    expect(Buffer.from(chunks[head.keys.indexOf("name")]).toString("latin1").slice(3, 4)).toBe("[");
    const d = decodeSnapshot({ body, chunks })!;
    expect(d.column("tokens")).toEqual([{ input: 2 }, null, null]);
    expect(decodeSnapshot({ body, chunks })!.rowSummary(0)).toStrictEqual(entries[0].summary);
    // A damaged one: that column (and a whole summary) cannot be read; the others can.
    const spoilt = [...chunks];
    spoilt[head.keys.indexOf("tokens")] = Buffer.concat([b("g1\n"), Buffer.alloc(tokens.length - 3, 7)]);
    const bad = decodeSnapshot({ body, chunks: spoilt })!;
    expect(bad.column("name")).toEqual([entries[0].summary!.name, null, null]);
    expect(() => bad.column("tokens")).toThrow();
    expect(() => bad.summary(0)).toThrow();
  });

  it("is not read when an earlier layout wrote it (snapshot 9: no column gzipped): the caller writes it again", () => {
    const { body, chunks } = encodeSnapshot(entries, "g1");
    const text = Buffer.from(body).toString("latin1");
    const nine = Buffer.from(text.replace(/^snapshot \d+ /, "snapshot 9 "), "latin1");
    expect(decodeIdentities(nine)).toBeUndefined();
    expect(decodeSnapshot({ body: nine, chunks })).toBeUndefined();
  });

  it("says in its first bytes where the identities lie, to be read out of the database alone", () => {
    const { body, chunks } = encodeSnapshot(entries, "g1");
    const at = identitiesAt(Buffer.from(body).subarray(0, HEAD_BYTES))!;
    const alone = identitiesOf(Buffer.from(body).subarray(...at))!;
    expect(alone.gen).toBe("g1");
    expect([...alone.path]).toEqual([...decodeIdentities(body)!.path]);
    // Passed the identities read alone, the whole snapshot reads as at once.
    expect(decodeSnapshot({ body, chunks }, alone)!.summary(0)).toStrictEqual(entries[0].summary);
    expect(identitiesAt(Buffer.from("snapshot 5\n{"))).toBeUndefined();
  });

  it("makes no code of anything in the file but its keys' text (a shape that names no key is damage)", () => {
    const text = Buffer.from(encodeSnapshot(entries, "g1").body).toString("latin1");
    const bad = Buffer.from(text.replace(/"shapes":\[\[0/, '"shapes":[["0][i]; throw new Error(`ran`); //"'), "latin1");
    expect(bad.length).toBeGreaterThan(text.length);
    const { chunks } = encodeSnapshot(entries, "g1");
    expect(() => decodeSnapshot({ body: bad, chunks })!.summary(0)).toThrow("names no key");
    // Keys are only keys, whatever their text.
    const odd = { path: "/s/o.jsonl", ino: 4, size: 1, mtime: 1, diagnostic: null };
    const summary = { 'a"]: 1, b: (() => { throw 1 })(), c: ["': 1, "\u2028": 2 };
    expect(decodeSnapshot(encodeSnapshot([{ ...odd, summary }]))!.summary(0)).toStrictEqual(summary);
  });

  it("keeps each column in a row of its own: one missing, one too many, or one of another snapshot is not believed", () => {
    const { body, chunks } = encodeSnapshot(entries, "g1");
    const lines = Buffer.from(body).toString("latin1").split("\n");
    // No one value holds the columns: the first row is the identities and the columns' layout alone.
    expect(lines).toHaveLength(3);
    const keys = (JSON.parse(lines[2]) as { keys: string[] }).keys;
    expect(chunks).toHaveLength(keys.length);
    const rows = chunks.map((c, k) => ({ id: FIRST_CHUNK_ID + k, body: c }));
    expect(decodeSnapshot({ body, chunks: chunksOf(rows) })!.summary(0)).toStrictEqual(entries[0].summary);
    // A row missing in the middle, or at the end; a row too many (an earlier snapshot's).
    expect(chunksOf(rows.filter((_, k) => k !== 1))).toBeUndefined();
    expect(decodeSnapshot({ body, chunks: chunks.slice(0, -1) })).toBeUndefined();
    expect(decodeSnapshot({ body, chunks: [...chunks, Buffer.from("g1\n[]")] })).toBeUndefined();
    // A column of another generation (of the same length); one cut short.
    const other = encodeSnapshot(entries, "g2").chunks;
    expect(decodeSnapshot({ body, chunks: [other[0], ...chunks.slice(1)] })).toBeUndefined();
    const name = keys.indexOf("name");
    const cut = [...chunks];
    cut[name] = chunks[name].subarray(0, chunks[name].length - 1);
    expect(decodeSnapshot({ body, chunks: cut })).toBeUndefined();
    expect(decodeSnapshot({ body, chunks: undefined })).toBeUndefined();
    // Given a place to put them, each column goes there as it is made, none kept.
    const put: Array<[number, Uint8Array]> = [];
    const given = encodeSnapshot(entries, "g1", (k, chunk) => put.push([k, chunk]));
    expect(given.chunks).toEqual([]);
    expect(put.map(([k]) => k)).toEqual(chunks.map((_, k) => k));
    expect(put.map(([, c]) => c)).toStrictEqual(chunks);
    expect(Buffer.compare(given.body, body)).toBe(0);
  });

  it("starts with no '{': a pi-sessions of the one-text layout takes it for none and reads the rows", () => {
    expect(Buffer.from(encodeSnapshot(entries).body).toString("latin1")[0]).not.toBe("{");
  });

  it("an empty store, and a snapshot of another layout (not read: the caller falls back to the rows)", () => {
    expect(decodeSnapshot(encodeSnapshot([]))!.n).toBe(0);
    expect(decodeSnapshot({ body: JSON.stringify([["/s/a.jsonl", 1, 2, 3, {}, null]]), chunks: [] })).toBeUndefined();
    expect(decodeSnapshot({ body: JSON.stringify({ v: 99, n: 0, path: [] }), chunks: [] })).toBeUndefined();
    expect(decodeIdentities(JSON.stringify({ v: 4, n: 0, path: [] }))).toBeUndefined();
  });
});

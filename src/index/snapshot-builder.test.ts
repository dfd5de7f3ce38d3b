import { describe, expect, it } from "vitest";
import { SnapshotBuilder, encodeSnapshot } from "./snapshot-builder.js";
import { gunzipSync } from "node:zlib";
import { decodeSnapshot, LAYOUT, type SnapshotEntry } from "./snapshot-codec.js";

const b = (s: string) => Buffer.from(s);

/** A session's entry whose summary says its file's size is `bytes` (its identity's, unless told). */
const entry = (i: number, bytes = i * 10, ctime = i): SnapshotEntry => ({
  path: `/s/${i}.jsonl`,
  ino: i,
  size: i * 10,
  mtime: i,
  ctime,
  summary: { path: `/s/${i}.jsonl`, id: `s${i}`, bytes, ctimeMs: i },
  diagnostic: null,
  pieces: [b(`{"id": "s${i}", "lineage": `), b(`}`)],
});

describe("the snapshot made one entry at a time", () => {
  it("gives each row's list pieces back before and after it is written, as the written snapshot has them", () => {
    const builder = new SnapshotBuilder("g1");
    const entries = [entry(1), { ...entry(2), summary: null, pieces: undefined }, entry(3)];
    for (const e of entries) builder.add(e);
    const text = (p: readonly Uint8Array[] | undefined) => p?.map((x) => Buffer.from(x).toString());
    expect(text(builder.pieces(2))).toEqual(['{"id": "s3", "lineage": ', "}"]);
    expect(builder.pieces(1)).toBeUndefined();
    const { body, chunks, list } = builder.finish();
    const d = decodeSnapshot({ body, chunks })!;
    for (const i of [0, 1, 2]) expect(text(builder.pieces(i))).toEqual(text(d.pieces(i, list)));
    // Nothing is added once its list text is made (it would not be in it).
    expect(() => builder.add(entry(4))).toThrow();
  });

  it("writes an identity's column whole once a row holds another value (a read that may be older than its file)", () => {
    // Rows 0 and 1 hold their identity's values; row 2 a size and a ctime of its own (-1: racy).
    const entries = [entry(1), entry(2), entry(3, 99, -1), entry(4)];
    const d = decodeSnapshot(encodeSnapshot(entries, "g1"))!;
    expect(d.column("bytes")).toEqual([10, 20, 99, 40]);
    expect(d.column("ctimeMs")).toEqual([1, 2, 3, 4]);
    expect([0, 1, 2, 3].map((i) => d.summary(i))).toStrictEqual(entries.map((e) => e.summary));
    // Every row its identity's: not written twice.
    const same = decodeSnapshot(encodeSnapshot([entry(1), entry(2)], "g1"))!;
    expect(same.column("bytes")).toEqual([10, 20]);
    const head = JSON.parse(
      Buffer.from(encodeSnapshot([entry(1), entry(2)], "g1").body)
        .toString()
        .split("\n")[2],
    );
    expect(head.same[head.keys.indexOf("bytes")]).toBe("size");
  });

  /** A row's list element in manyEntries: over a kilobyte of UTF-8, so the list text spans many members. */
  const element = (i: number) => `{"id": "${"é".repeat(1200 + (i % 97))}${i}", "lineage": `;
  /** `n` entries with list pieces, every seventh without a summary (no pieces). */
  const manyEntries = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      i % 7 === 3
        ? { ...entry(i), summary: null, pieces: undefined }
        : { ...entry(i), pieces: [b(element(i)), b(`}${i}`)] as const },
    );
  const text = (p: readonly Uint8Array[] | undefined) => p?.map((x) => Buffer.from(x).toString());

  it("gives the pieces of rows across many list members, in their order or any other, as the written snapshot has them", () => {
    const entries = manyEntries(6000);
    const { body, chunks, list } = encodeSnapshot(entries, "g1");
    const d = decodeSnapshot({ body, chunks })!;
    const want = entries.map((_, i) => text(d.pieces(i, list)));
    expect(want[5]).toEqual([element(5), "}5"]);
    // In the order read (a few members unzipped at a time), then shuffled (the whole text unzipped once).
    const inOrder = new SnapshotBuilder("g1");
    for (const e of entries) inOrder.add(e);
    expect(entries.map((_, i) => text(inOrder.pieces(i)))).toEqual(want);
    const shuffled = new SnapshotBuilder("g1");
    for (const e of entries) shuffled.add(e);
    const order = entries.map((_, i) => (i * 7919) % entries.length);
    expect(order.map((i) => text(shuffled.pieces(i)))).toEqual(order.map((i) => want[i]));
    expect(Buffer.compare(shuffled.finish().list, list)).toBe(0);
  });

  it("is read back a list member at a time, not as the whole list text, in the order written; in any other, the same pieces", () => {
    const entries = manyEntries(8000);
    const want = entries.map((e) => (e.pieces ? [element(e.ino), `}${e.ino}`] : undefined));
    const { body, chunks, list } = encodeSnapshot(entries, "g1");
    const whole = gunzipSync(list).length;
    // In the order written: each piece out of a member of its own (a megabyte or so), never the whole (19 MB).
    const d = decodeSnapshot({ body, chunks })!;
    const got = entries.map((_, i) => d.pieces(i, list));
    expect(got.map(text)).toEqual(want);
    for (const p of got) if (p) expect(p[0].buffer.byteLength).toBeLessThan(whole / 4);
    // Asked again in order: the same pieces (the whole text unzipped once the members would be again).
    expect(entries.map((_, i) => text(d.pieces(i, list)))).toEqual(want);
    // Shuffled: the same pieces (the whole text unzipped once when members would be again and again).
    const order = entries.map((_, i) => (i * 7919) % entries.length);
    const shuffled = decodeSnapshot({ body, chunks })!;
    const jumped = order.map((i) => shuffled.pieces(i, list));
    expect(jumped.map(text)).toEqual(order.map((i) => want[i]));
    // ... soon, in an order that jumps between members: once a few would be unzipped again.
    const jumpy = decodeSnapshot({ body, chunks })!;
    const far = entries.map((_, i) => (i * 3001) % entries.length).filter((i) => want[i]);
    const first = far.slice(0, 45).map((i) => jumpy.pieces(i, list)![0].buffer.byteLength);
    expect(first[0]).toBeLessThan(whole / 4);
    expect(first[44]).toBeGreaterThanOrEqual(whole);
    // ... or at once, when the reader is told the order jumps (list --json sorted otherwise than newest first).
    const told = decodeSnapshot({ body, chunks })!.piecesReader();
    told.jumpy(list);
    expect(told(far[0], list)![0].buffer.byteLength).toBeGreaterThanOrEqual(whole);
    expect(far.map((i) => text(told(i, list)))).toEqual(far.map((i) => want[i]));
    // A snapshot written before its head said where the members start: read as the whole text, the same.
    const lines = Buffer.from(body).toString("latin1").split("\n");
    const without = JSON.parse(lines[2]) as Record<string, unknown>;
    expect(without.lm).toBeDefined();
    delete without.lm;
    delete without.lz;
    const ids = lines[1];
    const older = Buffer.from(`${LAYOUT}${ids.length}\n${ids}\n${JSON.stringify(without)}`, "latin1");
    const o = decodeSnapshot({ body: older, chunks })!;
    expect(entries.map((_, i) => text(o.pieces(i, list)))).toEqual(want);
    // Whether a row has pieces is told from the first member alone: a later member damaged
    // (same length) still says yes, and its rows' pieces are none when read.
    const head = JSON.parse(lines[2]) as { lz: number[] };
    const damaged = Buffer.from(list);
    damaged.fill(0x41, head.lz[2] + 20, head.lz[3] - 20);
    const r = decodeSnapshot({ body, chunks })!.piecesReader();
    const inThird = entries.findIndex(
      (_, i) => i > 0 && want[i] && text(d.pieces(i, list)) && r.has(i, damaged) && !r(i, damaged),
    );
    expect(inThird).toBeGreaterThan(0);
    expect(entries.every((_, i) => r.has(i, damaged) === (want[i] !== undefined))).toBe(true);
    expect(text(r(0, damaged))).toEqual(want[0]);
    // A list text its members' layout does not fit (another one of the same generation): no pieces.
    const other = encodeSnapshot(entries.slice(0, 3000), "g1").list;
    expect(decodeSnapshot({ body, chunks })!.pieces(0, other)).toBeUndefined();
  });

  it("asks for its collection before its columns are made, lets go of each column once put, hands its body on before the list text is joined (the same bytes)", () => {
    const entries = manyEntries(6000);
    const whole = encodeSnapshot(entries, "g1");
    const said: string[] = [];
    const given: Uint8Array[] = [];
    const copies: Buffer[] = [];
    const builder = new SnapshotBuilder("g1");
    for (const e of entries) builder.add(e);
    const { body, list } = builder.finish(
      (k, chunk) => {
        said.push(`column ${k}`);
        given.push(chunk);
        copies.push(Buffer.from(chunk));
      },
      () => said.push("collect"),
      (made) => {
        said.push("body");
        given.push(made);
        copies.push(Buffer.from(made));
      },
    );
    expect(said[0]).toBe("collect");
    expect(said.at(-1)).toBe("body");
    expect(said.length).toBe(whole.chunks.length + 2);
    expect(copies.slice(0, -1)).toEqual(whole.chunks.map((c) => Buffer.from(c)));
    // The body handed on as made (then let go of), none returned; the list text the same.
    expect(copies.at(-1)).toEqual(Buffer.from(whole.body));
    expect(given.at(-1)!.length).toBe(0);
    expect(body.length).toBe(0);
    expect(Buffer.compare(Buffer.from(list), Buffer.from(whole.list))).toBe(0);
    // Each column of some size (the ids' here, 50 KB) is its own buffer, emptied once put: its memory let go of.
    const large = copies.map((c, k) => (c.length >= 1 << 13 ? k : -1)).filter((k) => k >= 0);
    expect(large.length).toBeGreaterThan(0);
    for (const k of large) expect(given[k].length).toBe(0);
  });
});

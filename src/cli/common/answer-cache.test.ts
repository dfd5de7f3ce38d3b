import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir } from "../../../test/helpers/tmp-store.js";
import { answersDirOf, removeIndexFiles } from "../../index/index-db.js";
import { openStoreIndex } from "../../index/store-index.js";
import { AnswerCache } from "./answer-cache.js";
import type { KeptFile } from "./kept-file.js";

afterEach(() => cleanupTmp());

function open() {
  return openStoreIndex(makeTmpDir(), (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
}

const answer = (text: string, err = "") => ({ out: Buffer.from(text), err });
const text = (a: { out: Uint8Array } | undefined) => a && Buffer.from(a.out).toString();
/** A kept file's chunks, each copied (they share one buffer), and the text they make. */
function chunksOf(f: KeptFile | undefined) {
  const chunks: Buffer[] = [];
  if (f) for (const c of f.chunks()) chunks.push(Buffer.from(c));
  return { chunks, text: f && Buffer.concat(chunks).toString() };
}

describe("kept answers", () => {
  it("are served only for the same key and the same store, with what went to stderr", () => {
    const index = open();
    const cache = new AnswerCache(index.db.path);
    cache.put("list", "fp1", answer("[1]", "pi-sessions: skipped x\n"));
    expect(cache.get("list", "fp1")).toEqual({ out: Buffer.from("[1]"), err: "pi-sessions: skipped x\n" });
    expect(cache.get("list", "fp2")).toBeUndefined();
    expect(cache.get("search rows", "fp1")).toBeUndefined();
    // Another answer to the same key replaces it.
    cache.put("list", "fp2", answer("[2]"));
    expect(text(cache.get("list", "fp2"))).toBe("[2]");
    expect(cache.get("list", "fp1")).toBeUndefined();
    index.close();
  });

  it("are kept from pieces as from one buffer: the same bytes, the same checksum", () => {
    const index = open();
    const cache = new AnswerCache(index.db.path);
    cache.put("list", "fp1", { out: [Buffer.from("[1,"), new Uint8Array(0), Buffer.from("2]")], err: "e\n" });
    expect(cache.get("list", "fp1")).toEqual({ out: Buffer.from("[1,2]"), err: "e\n" });
    const pieces = readFileSync(join(answersDirOf(index.db.path), readdirSync(answersDirOf(index.db.path))[0]));
    cache.put("list", "fp1", answer("[1,2]", "e\n"));
    expect(readFileSync(join(answersDirOf(index.db.path), readdirSync(answersDirOf(index.db.path))[0]))).toEqual(
      pieces,
    );
    index.close();
  });

  it("say which store they are of from their first bytes, however long what went to stderr", () => {
    const index = open();
    const cache = new AnswerCache(index.db.path);
    expect(cache.fingerprintOf("list")).toBeUndefined();
    cache.put("list", "fp1", answer("[1]"));
    expect(cache.fingerprintOf("list")).toBe("fp1");
    cache.put("list", "fp2", answer("[2]", "pi-sessions: a warning\n".repeat(1000)));
    expect(cache.fingerprintOf("list")).toBe("fp2");
    index.close();
  });

  it("are kept however many sessions a store holds: 100,000 sessions' search rows are ~80 MB", () => {
    const index = open();
    const cache = new AnswerCache(index.db.path);
    // Over the 64 MiB the cap once was: such a store read every summary again at every run.
    const big = Buffer.alloc(80 << 20, 0x61);
    big[big.length - 1] = 0x62;
    cache.put("search rows", "fp1", { out: big, err: "" });
    const back = cache.get("search rows", "fp1");
    expect(back?.out.length).toBe(big.length);
    expect(back && Buffer.compare(Buffer.from(back.out), big)).toBe(0);
    index.close();
  });

  it("kept with a first part are read a part at a time: the part checked alone, the rest read from that very file as asked", () => {
    const index = open();
    const cache = new AnswerCache(index.db.path);
    cache.put("rows", "fp1", { out: [Buffer.from("head|"), Buffer.from("rest of it")], err: "e\n", part: 5 });
    // Read whole, as any answer: the same bytes.
    expect(text(cache.get("rows", "fp1"))).toBe("head|rest of it");
    const kept = cache.latestPart("rows")!;
    expect(text(kept)).toBe("head|");
    expect(kept.err).toBe("e\n");
    expect(kept.fingerprint).toBe("fp1");
    expect(kept.rest!.length).toBe(10);
    expect(kept.rest!.read(3, 4).toString()).toBe("t of");
    expect(() => kept.rest!.read(8, 4)).toThrow();
    // An answer kept without a part is read whole.
    cache.put("list", "fp1", answer("[1]"));
    expect(cache.latestPart("list")).toEqual({ out: Buffer.from("[1]"), err: "", fingerprint: "fp1" });
    // Replaced since (another run renamed its rows over the file): its rest is still read, from
    // the file it was opened on, never from the new one; until the cache is closed.
    cache.put("rows", "fp1", { out: Buffer.from("head|REST OF IT"), err: "e\n", part: 5 });
    expect(kept.rest!.read(0, 4).toString()).toBe("rest");
    expect(cache.latestPart("rows")!.rest!.read(0, 4).toString()).toBe("REST");
    cache.close();
    expect(() => kept.rest!.read(0, 4)).toThrow(/closed/);
    // A part with a byte changed is a miss; a change in the rest is the reader's to find (search-rows.ts checks it).
    const dir = answersDirOf(index.db.path);
    const file = join(
      dir,
      readdirSync(dir).find((f) => readFileSync(join(dir, f)).includes("REST"))!,
    );
    const bytes = readFileSync(file);
    const at = bytes.indexOf("head|");
    writeFileSync(file, Buffer.concat([bytes.subarray(0, at), Buffer.from("HEAD|"), bytes.subarray(at + 5)]));
    expect(cache.latestPart("rows")).toBeUndefined();
    writeFileSync(file, Buffer.concat([bytes.subarray(0, at + 5), Buffer.from("rest"), bytes.subarray(at + 9)]));
    expect(cache.latestPart("rows")!.rest!.read(0, 4).toString()).toBe("rest");
    expect(cache.get("rows", "fp1")).toBeUndefined();
    // Cut short: a miss.
    writeFileSync(file, bytes.subarray(0, bytes.length - 1));
    expect(cache.latestPart("rows")).toBeUndefined();
    index.close();
  });

  it("hold no more than their budget in all: the least recently written are dropped first", () => {
    const index = open();
    const cache = new AnswerCache(index.db.path, 2500);
    const kb = (c: string) => answer(c.repeat(1000));
    cache.put("list a", "fp1", kb("a"));
    cache.put("list b", "fp1", kb("b"));
    expect(text(cache.get("list a", "fp1"))?.length).toBe(1000);
    // A third passes 2,500 bytes with the header lines: the oldest goes, the newest two stay.
    const dir = answersDirOf(index.db.path);
    const aged = readdirSync(dir).map((n) => join(dir, n));
    for (const f of aged) utimesSync(f, new Date(2020, 0, 1), new Date(2020, 0, 1));
    utimesSync(
      aged.find((f) => readFileSync(f, "utf8").endsWith("b"))!,
      new Date(2021, 0, 1),
      new Date(2021, 0, 1),
    );
    cache.put("list c", "fp1", kb("c"));
    expect(cache.get("list a", "fp1")).toBeUndefined();
    expect(text(cache.get("list b", "fp1"))?.length).toBe(1000);
    expect(text(cache.get("list c", "fp1"))?.length).toBe(1000);
    // One larger than the budget is still kept (MAX_ANSWER bounds one answer), alone.
    cache.put("list d", "fp1", answer("d".repeat(3000)));
    expect(text(cache.get("list d", "fp1"))?.length).toBe(3000);
    expect(cache.get("list b", "fp1")).toBeUndefined();
    expect(cache.get("list c", "fp1")).toBeUndefined();
    index.close();
  });

  it("are kept only once two runs in a row saw the same store", () => {
    const index = open();
    const cache = new AnswerCache(index.db.path);
    expect(cache.settled("list", "fp1")).toBe(false);
    expect(cache.settled("list", "fp2")).toBe(false);
    expect(cache.settled("list", "fp2")).toBe(true);
    index.close();
  });

  it("are the user's alone, and go with the index", () => {
    const index = open();
    new AnswerCache(index.db.path).put("list", "fp1", answer("[1]"));
    const dir = answersDirOf(index.db.path);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(dir)) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
    index.close();
    removeIndexFiles(index.db.path);
    expect(() => statSync(dir)).toThrow();
  });

  it("of another build, and a crashed run's temporary file, are dropped when one is kept", () => {
    const index = open();
    const cache = new AnswerCache(index.db.path);
    cache.put("list", "fp1", answer("[1]"));
    const dir = answersDirOf(index.db.path);
    writeFileSync(join(dir, "0123456789abcdef-" + "0".repeat(32)), '{"fingerprint":"fp1","err":""}\n[old]');
    // Cut short within its header's first bytes (a crash right after it was made).
    const stale = join(dir, ".tmp-1-abc");
    writeFileSync(stale, '{"pi-sessions an');
    const old = new Date(Date.now() - 3600_000);
    utimesSync(stale, old, old);
    const fresh = join(dir, ".tmp-2-def");
    writeFileSync(fresh, "being written");
    expect(readdirSync(dir)).toHaveLength(4);
    cache.put("search rows", "fp1", answer("{}"));
    // This build's two answers, and the temporary file another run is writing now.
    expect(readdirSync(dir).sort()).toHaveLength(3);
    expect(readdirSync(dir)).toContain(".tmp-2-def");
    expect(text(cache.get("list", "fp1"))).toBe("[1]");
    expect(text(cache.get("search rows", "fp1"))).toBe("{}");
    index.close();
  });

  it("are a miss when torn or foreign, never an error", () => {
    const index = open();
    const cache = new AnswerCache(index.db.path);
    cache.put("list", "fp1", answer("[1]"));
    const dir = answersDirOf(index.db.path);
    const [file] = readdirSync(dir);
    for (const junk of ["", "no newline", "not json\n[1]", '{"fingerprint":"fp1"}\n[1]'])
      writeFileSync(join(dir, file), junk);
    expect(cache.get("list", "fp1")).toBeUndefined();
    index.close();
  });

  it("are read as a file a chunk at a time: the same bytes, each chunk whole characters, checked whole first", () => {
    const index = open();
    const cache = new AnswerCache(index.db.path);
    // Three-byte characters across the 1 MiB chunks' ends, and a four-byte one.
    const big = `[a${"é—".repeat(300_000)}😀${"x".repeat(1 << 20)}]`;
    cache.put("list", "fp1", answer(big, "e\n"));
    const f = cache.file("list", "fp1");
    expect(f?.err).toBe("e\n");
    const { chunks, text: whole } = chunksOf(f);
    expect(whole).toBe(big);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(Buffer.from(c.toString()).equals(c)).toBe(true);
    expect(cache.file("list", "fp2")).toBeUndefined();
    expect(cache.file("other", "fp1")).toBeUndefined();
    // A bit flipped anywhere, or the file cut short or grown: a miss, found before a chunk is handed out.
    const dir = answersDirOf(index.db.path);
    const [name] = readdirSync(dir);
    const bytes = readFileSync(join(dir, name));
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 2] ^= 1;
    for (const junk of [flipped, bytes.subarray(0, bytes.length - 1), Buffer.concat([bytes, Buffer.from(" ")])]) {
      writeFileSync(join(dir, name), junk);
      expect(cache.file("list", "fp1")).toBeUndefined();
    }
    // What went to stderr longer than the header's first read: read whole, the same answer.
    cache.put("list", "fp1", answer("[1]", "pi-sessions: a warning\n".repeat(1000)));
    expect(chunksOf(cache.file("list", "fp1")).text).toBe("[1]");
    index.close();
  });
});

import { describe, expect, it } from "vitest";
import type { IndexDb } from "../../index/index-db.js";
import type { SearchTarget } from "../../search/fulltext.js";
import type { Answer } from "./answer-cache.js";
import { coverageAnswer, uncoveredFiles } from "./search-coverage.js";

/** An index whose text generation is `gen` (all a kept coverage asks of it). */
const indexAt = (gen: string) => ({ meta: (key: string) => (key === "text_gen" ? gen : undefined) }) as IndexDb;

/** A coverage kept as search-coverage.ts writes it: a JSON head, a newline, the fids (int32), the tools flags. */
function kept(rows: SearchTarget[], gen: string, listed = true, caughtUp = [1, 0], stamp = "s1") {
  const n = rows.length;
  const head = {
    v: 4,
    gen,
    rows: stamp,
    n,
    caughtUp,
    uncovered: listed ? { chat: ["/s/1.jsonl"], tools: ["/s/1.jsonl", "/s/3.jsonl"] } : null,
  };
  const fid = Int32Array.from(rows, (_, i) => (i % 5 === 1 ? -1 : 1000 + i));
  const tools = Uint8Array.from(rows, (_, i) => (i % 2 === 0 ? 1 : 0));
  const out = Buffer.concat([Buffer.from(JSON.stringify(head) + "\n"), Buffer.from(fid.buffer), Buffer.from(tools)]);
  const answers = new Map<string, Answer>([["search coverage", { out, err: "" }]]);
  return { get: (k: string) => answers.get(k), put: (k: string, a: Answer) => void answers.set(k, a) };
}

describe("kept search coverage", () => {
  const rows: SearchTarget[] = Array.from({ length: 200 }, (_, i) => ({
    path: `/s/${i}.jsonl`,
    bytes: i,
    mtimeMs: i,
  }));

  it("gives each row's fid as kept, asked of a few rows or of all of them, and nothing for another target", () => {
    const covered = coverageAnswer(kept(rows, "g1"), rows, "s1").read(indexAt("g1"))!;
    const want = (i: number, tools: boolean) => (i % 5 === 1 || (tools && i % 2 !== 0) ? undefined : 1000 + i);
    // Backwards, then forwards: past the first few the rows are looked up another way.
    for (let i = rows.length - 1; i >= 0; i--) expect(covered.known(rows[i], false)).toBe(want(i, false));
    for (let i = 0; i < rows.length; i++) expect(covered.known(rows[i], true)).toBe(want(i, true));
    // The same path, another object: not one of the rows it was kept for.
    expect(covered.known({ ...rows[1] }, false)).toBeUndefined();
    expect(covered.caughtUp(false)).toBe(true);
    expect(covered.caughtUp(true)).toBe(false);
  });

  it("is not used once the index's text has changed, nor for other rows", () => {
    expect(coverageAnswer(kept(rows, "g1"), rows, "s1").read(indexAt("g2"))).toBeUndefined();
    expect(coverageAnswer(kept(rows, "g1"), rows.slice(1), "s1").read(indexAt("g1"))).toBeUndefined();
    const covered = coverageAnswer(kept(rows, "g1"), rows, "s1").read(indexAt("g1"))!;
    expect(covered.still(indexAt("g1"))).toBe(true);
    expect(covered.still(indexAt("g2"))).toBe(false);
  });

  it("is read only for the very rows it was kept for (their stamp), and not when cut short or of another layout", () => {
    // The same store's rows kept again (another stamp) may be in another order: its places mean nothing for them.
    expect(coverageAnswer(kept(rows, "g1"), rows, "s2").read(indexAt("g1"))).toBeUndefined();
    const whole = kept(rows, "g1").get("search coverage")!;
    const cut = { get: () => ({ out: whole.out.subarray(0, whole.out.length - 1), err: "" }), put: () => {} };
    expect(coverageAnswer(cut, rows, "s1").read(indexAt("g1"))).toBeUndefined();
    const text = Buffer.from(whole.out).toString("latin1").replace('"v":4', '"v":3');
    const old = { get: () => ({ out: Buffer.from(text, "latin1"), err: "" }), put: () => {} };
    expect(coverageAnswer(old, rows, "s1").read(indexAt("g1"))).toBeUndefined();
  });

  it("reads nothing kept for rows stamped just now (none can be theirs)", () => {
    const asked: string[] = [];
    const other = { ...kept(rows, "g1"), get: (k: string) => void asked.push(k) };
    expect(coverageAnswer(other, rows, "s1", true).read(indexAt("g1"))).toBeUndefined();
    expect(asked).toEqual([]);
  });

  it("reads back what it worked out and kept: each row's fid, its tools flag, the caught-up flags", () => {
    const store = new Map<string, Answer>();
    const other = { get: (k: string) => store.get(k), put: (k: string, a: Answer) => void store.set(k, a) };
    const targets = rows.map((r) => ({ ...r, ctimeMs: 7 }));
    const db = {
      meta: () => "g1",
      changeMark: () => `m${Math.random()}`,
      q: () => ({
        all: () =>
          targets.map((r, i) => ({
            fid: 70000 + i,
            path: r.path,
            // Row 4's file changed since it was indexed: not caught up with, not covered.
            text_size: i === 4 ? r.bytes + 1 : r.bytes,
            text_mtime: r.mtimeMs,
            text_ctime: 7,
            text_whole: i % 3 === 0 ? 0 : 1,
            text_tools: i % 2,
          })),
      }),
    } as unknown as IndexDb;
    // Worked out now, then kept: the same answers before and after.
    const now = coverageAnswer(other, targets, "s9").workOut(db)!;
    expect(coverageAnswer(other, targets, "s9").read(db)).toBeUndefined();
    now.keep();
    for (const back of [now, coverageAnswer(other, targets, "s9").read(db)!])
      for (let i = 0; i < targets.length; i++) {
        const chat = i === 4 || i % 3 === 0 ? undefined : 70000 + i;
        expect([i, back.known(targets[i], false), back.known(targets[i], true)]).toEqual([
          i,
          chat,
          chat !== undefined && i % 2 === 1 ? chat : undefined,
        ]);
      }
    expect([now.caughtUp(false), now.caughtUp(true)]).toEqual([false, false]);
    const back = coverageAnswer(other, targets, "s9").read(db)!;
    expect([back.caughtUp(false), back.caughtUp(true)]).toEqual([false, false]);
  });

  it("keeps nothing when an fid does not fit in 32 bits (it would be read back as another file's)", () => {
    const store = new Map<string, Answer>();
    const other = { get: (k: string) => store.get(k), put: (k: string, a: Answer) => void store.set(k, a) };
    const targets = rows.map((r) => ({ ...r, ctimeMs: 7 }));
    const db = (big: number) =>
      ({
        meta: () => "g1",
        changeMark: () => "m1",
        q: () => ({
          all: () =>
            targets.map((r, i) => ({
              fid: i === 2 ? big : i + 1,
              path: r.path,
              text_size: r.bytes,
              text_mtime: r.mtimeMs,
              text_ctime: 7,
              text_whole: 1,
              text_tools: 1,
            })),
        }),
      }) as unknown as IndexDb;
    // 2^32 + 5 would come back as 5: row 4's file.
    coverageAnswer(other, targets, "s1")
      .workOut(db(2 ** 32 + 5))!
      .keep();
    expect(store.has("search coverage")).toBe(false);
    coverageAnswer(other, targets, "s1").keep(db(2 ** 31));
    expect(store.has("search coverage")).toBe(false);
    // The largest int32 is kept, and read back as itself.
    coverageAnswer(other, targets, "s1").keep(db(0x7fffffff));
    expect(coverageAnswer(other, targets, "s1").read(db(0x7fffffff))!.known(targets[2], true)).toBe(0x7fffffff);
  });

  it("lists the files it does not cover, with their tool texts or not, only while the index's text is as it was", () => {
    expect(uncoveredFiles(kept(rows, "g1"), rows.length, indexAt("g1"), false)).toEqual(["/s/1.jsonl"]);
    const all = kept(rows, "g1", true, [1, 1]);
    expect(uncoveredFiles(all, rows.length, indexAt("g1"), true)).toEqual(["/s/1.jsonl", "/s/3.jsonl"]);
    // Tool texts left to catch up with: the search catches up (or says they are read), not this.
    expect(uncoveredFiles(kept(rows, "g1"), rows.length, indexAt("g1"), true)).toBeUndefined();
    expect(uncoveredFiles(kept(rows, "g1"), rows.length, indexAt("g2"), false)).toBeUndefined();
    expect(uncoveredFiles(kept(rows, "g1"), rows.length - 1, indexAt("g1"), false)).toBeUndefined();
    // Too many to list when it was kept.
    expect(uncoveredFiles(kept(rows, "g1", false), rows.length, indexAt("g1"), false)).toBeUndefined();
  });

  it("keeps the paths of the rows the index does not cover, and none past a few", () => {
    const store = new Map<string, Answer>();
    const other = { get: (k: string) => store.get(k), put: (k: string, a: Answer) => void store.set(k, a) };
    const db = (covered: (i: number) => boolean) =>
      ({
        meta: () => "g1",
        changeMark: () => `m${Math.random()}`,
        q: () => ({
          all: () =>
            rows.map((r, i) => ({
              fid: i + 1,
              path: r.path,
              text_size: r.bytes,
              text_mtime: r.mtimeMs,
              text_ctime: 7,
              text_whole: covered(i) ? 1 : 0,
              text_tools: 1,
            })),
        }),
      }) as unknown as IndexDb;
    const targets = rows.map((r) => ({ ...r, ctimeMs: 7 }));
    coverageAnswer(other, targets, "s1").keep(db((i) => i !== 3));
    expect(
      uncoveredFiles(
        other,
        rows.length,
        db(() => true),
        false,
      ),
    ).toEqual(["/s/3.jsonl"]);
    coverageAnswer(other, targets, "s1").keep(db((i) => i % 2 === 0));
    expect(
      uncoveredFiles(
        other,
        rows.length,
        db(() => true),
        false,
      ),
    ).toBeUndefined();
  });
});

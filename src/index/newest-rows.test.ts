import { describe, expect, it } from "vitest";
import { NEWEST_FORMAT, newestHead, NewestRows, readNewest, ROW_KEYS } from "./newest-rows.js";

const identity = (i: number) => ({ path: `/s/${i}.jsonl`, ino: i, size: 10 + i, mtime: i, ctime: i });

describe("the record of a snapshot's newest rows", () => {
  it("keeps the newest by modified (ties in the snapshot's order), what a row shows, and the newest left out", () => {
    // 1,000 rows in a shuffled order of times, some tied; a row with no time is none of them.
    const times = Array.from({ length: 1000 }, (_, i) => Math.floor((i * 7919) % 1000) / 2);
    const b = new NewestRows(10);
    times.forEach((t, i) =>
      b.add(i, identity(i), { path: `/s/${i}.jsonl`, modified: t, id: `id${i}`, usage: [1], tokens: {} }),
    );
    b.add(1000, identity(1000), { path: "/s/1000.jsonl", id: "none" });
    b.add(1001, identity(1001), { path: "/s/1001.jsonl", modified: Number.POSITIVE_INFINITY });
    const r = readNewest(b.bytes("g1", 1002), "g1")!;
    const want = times
      .map((t, i) => ({ t, i }))
      .sort((x, y) => y.t - x.t || x.i - y.i)
      .slice(0, 10);
    expect(r.rows.map((x) => x.i)).toEqual(want.map((w) => w.i));
    expect(r.next).toBe(times.map((t, i) => ({ t, i })).sort((x, y) => y.t - x.t || x.i - y.i)[10].t);
    expect(r.n).toBe(1002);
    for (const x of r.rows) {
      expect(Object.keys(x.row).every((k) => ROW_KEYS.has(k))).toBe(true);
      expect(x.row).toEqual({ path: x.path, modified: times[x.i], id: `id${x.i}` });
      expect(x).toMatchObject(identity(x.i));
    }
  });

  it("leaves none out when it holds every row; is none of another generation, another format, or damaged", () => {
    const b = new NewestRows(10);
    for (let i = 0; i < 3; i++) b.add(i, identity(i), { modified: i, name: "é\u{1F600}" });
    const bytes = b.bytes("g1", 3);
    expect(bytes.every((c) => c < 0x80)).toBe(true);
    const r = readNewest(bytes, "g1")!;
    expect(r.next).toBeNull();
    expect(r.rows.map((x) => x.row.name)).toEqual(["é\u{1F600}", "é\u{1F600}", "é\u{1F600}"]);
    expect(readNewest(bytes, "g2")).toBeUndefined();
    expect(readNewest(undefined, "g1")).toBeUndefined();
    const text = Buffer.from(bytes).toString("latin1");
    expect(text.startsWith(newestHead("g1"))).toBe(true);
    expect(readNewest(text.replace(NEWEST_FORMAT, "newest 2 "), "g1")).toBeUndefined();
    expect(
      readNewest(text.replace(newestHead("g1"), newestHead("g1").replace(/\d+ g1/, "9 g1")), "g1"),
    ).toBeUndefined();
    expect(readNewest(newestHead("g1") + '{"gen":"g1","n":3,"rows":[{', "g1")).toBeUndefined();
    expect(readNewest(text, "g1")).toEqual(r);
  });
});

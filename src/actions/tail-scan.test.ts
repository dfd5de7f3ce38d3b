import { appendFileSync, closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newTailScan, scanTail, type Tail } from "./tail-scan.js";

const dir = mkdtempSync(join(tmpdir(), "tail-scan-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const j = (o: unknown) => JSON.stringify(o);
const e = (id: string, text = "") => j({ type: "custom", id, parentId: null, timestamp: "t", customType: "t", text });
const shrank = (): never => {
  throw new Error("shrank");
};

/** The tail as read before chunks: the whole range decoded as one string and split. */
function reference(bytes: Buffer, start: number, startLeaf: string | null, startNl: boolean, strays: Set<string>) {
  const ids = new Set<string>();
  let leafId = startLeaf;
  if (bytes.length - start <= 0) return { leafId, ids, endsWithNewline: startNl || bytes.length === 0 };
  const buf = bytes.subarray(start);
  for (const line of buf.toString("utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      const x = JSON.parse(line) as { type?: string; id?: unknown };
      if (x && typeof x === "object" && x.type !== "session" && typeof x.id === "string") {
        ids.add(x.id);
        if (!strays.has(x.id)) leafId = x.id;
      }
    } catch {
      // skipped
    }
  }
  return { leafId, ids, endsWithNewline: buf[buf.length - 1] === 0x0a };
}

// A seeded generator, so a failure repeats.
function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

function randomContent(r: () => number): { text: string; ids: string[] } {
  const pieces = [
    () => e(`i${Math.floor(r() * 1e6)}`, "é€😀".repeat(Math.floor(r() * 5))),
    () => j({ type: "session", id: "s" }),
    () => "   ",
    () => "",
    () => e(`c${Math.floor(r() * 1e6)}`).slice(0, 1 + Math.floor(r() * 30)),
    () => "not json",
    () => j({ type: "custom", id: 5 }),
    () => "\u00e9\u20ac".slice(0, 1),
  ];
  let text = "";
  const count = Math.floor(r() * 12);
  for (let i = 0; i < count; i++) text += `${pieces[Math.floor(r() * pieces.length)]()}\n`;
  // Often a last line without its newline, complete or cut (mid-character too).
  if (r() < 0.6) {
    const last = e(`l${Math.floor(r() * 1e6)}`, "ü€");
    text += r() < 0.5 ? last : last.slice(0, Math.floor(r() * last.length));
  }
  const ids = [...text.matchAll(/"id":"([^"]+)"/g)].map((m) => m[1]);
  return { text, ids };
}

function sameAnswer(tail: Tail, want: ReturnType<typeof reference>, ids: string[]) {
  expect(tail.leafId).toBe(want.leafId);
  expect(tail.endsWithNewline).toBe(want.endsWithNewline);
  expect(tail.unreadableLeaf).toBe(false);
  for (const id of [...ids, "zzzz"]) expect(tail.ids.has(id)).toBe(want.ids.has(id));
}

describe("scanTail", () => {
  it("answers as one whole read did for any content, any chunk size, any split into retries", () => {
    const r = rng(7);
    for (let round = 0; round < 400; round++) {
      const head = r() < 0.5 ? `${e("h0")}\n` : "";
      const { text, ids } = randomContent(r);
      const all = Buffer.from(head + text);
      const start = Buffer.byteLength(head);
      const strays = new Set(r() < 0.3 && ids.length ? [ids[Math.floor(r() * ids.length)]] : []);
      const p = join(dir, `r${n++}`);
      writeFileSync(p, all.subarray(0, start));
      const scan = newTailScan(start, start ? "h0" : null, true);
      const chunk = 1 + Math.floor(r() * 40);
      const fd = openSync(p, "r");
      try {
        // The file grows in random steps (cutting lines and characters); each step is a retry.
        let at = start;
        while (at < all.length) {
          const next = Math.min(all.length, at + 1 + Math.floor(r() * 60));
          appendFileSync(p, all.subarray(at, next));
          at = next;
          const tail = scanTail(fd, scan, at, strays, shrank, chunk);
          sameAnswer(tail, reference(all.subarray(0, at), start, start ? "h0" : null, true, strays), ids);
        }
        sameAnswer(
          scanTail(fd, scan, at, strays, shrank, chunk),
          reference(all, start, start ? "h0" : null, true, strays),
          ids,
        );
      } finally {
        closeSync(fd);
      }
    }
  });

  it("an empty tail answers from the index (a file of no bytes ends a line)", () => {
    const p = join(dir, `e${n++}`);
    writeFileSync(p, `${e("a")}`);
    const fd = openSync(p, "r");
    try {
      expect(scanTail(fd, newTailScan(0, null, false), 0, new Set(), shrank).endsWithNewline).toBe(true);
      const at = Buffer.byteLength(e("a"));
      const tail = scanTail(fd, newTailScan(at, "a", false), at, new Set(), shrank);
      expect(tail).toMatchObject({ leafId: "a", endsWithNewline: false });
    } finally {
      closeSync(fd);
    }
  });

  it("a retry reads only the bytes appended since, a line cut across retries included", () => {
    const p = join(dir, `g${n++}`);
    const first = `${e("a", "x".repeat(1000))}\n${e("b", "y".repeat(1000))}`;
    writeFileSync(p, first);
    const fd = openSync(p, "r");
    try {
      const scan = newTailScan(0, null, true);
      let size = Buffer.byteLength(first);
      expect(scanTail(fd, scan, size, new Set(), shrank, 64).leafId).toBe("b");
      expect(scan.bytesRead).toBe(size);
      for (let i = 0; i < 20; i++) {
        const more = `\n${e(`c${i}`, "z".repeat(500))}`;
        appendFileSync(p, more);
        size += Buffer.byteLength(more);
        const tail = scanTail(fd, scan, size, new Set(), shrank, 64);
        expect(tail.leafId).toBe(`c${i}`);
        expect(tail.ids.has("a") && tail.ids.has("b") && tail.ids.has(`c${i}`)).toBe(true);
        expect(scan.bytesRead).toBe(size);
      }
    } finally {
      closeSync(fd);
    }
  });

  it("a line longer than a string may be is not decoded, and as the last entry it makes the parent unknown", () => {
    const p = join(dir, `o${n++}`);
    const long = e("big", "q".repeat(300));
    writeFileSync(p, `${e("a")}\n${long}\n`);
    const fd = openSync(p, "r");
    try {
      const scan = newTailScan(0, null, true);
      let size = Buffer.byteLength(`${e("a")}\n${long}\n`);
      let tail = scanTail(fd, scan, size, new Set(), shrank, 16, 200);
      expect(tail).toMatchObject({ leafId: "a", unreadableLeaf: true, endsWithNewline: true });
      expect(tail.ids.has("big")).toBe(false);
      // Held back past the limit: only counted, never kept.
      appendFileSync(p, long);
      size += Buffer.byteLength(long);
      tail = scanTail(fd, scan, size, new Set(), shrank, 16, 200);
      expect(tail).toMatchObject({ leafId: "a", unreadableLeaf: true, endsWithNewline: false });
      expect(scan.partial).toEqual([]);
      // An entry after it is the parent again.
      appendFileSync(p, `\n${e("c")}\n`);
      size += Buffer.byteLength(`\n${e("c")}\n`);
      tail = scanTail(fd, scan, size, new Set(), shrank, 16, 200);
      expect(tail).toMatchObject({ leafId: "c", unreadableLeaf: false, endsWithNewline: true });
    } finally {
      closeSync(fd);
    }
  });

  it("a file shorter than what was read, or than its size said, shrank", () => {
    const p = join(dir, `s${n++}`);
    writeFileSync(p, `${e("a")}\n`);
    const fd = openSync(p, "r");
    try {
      const scan = newTailScan(0, null, true);
      const size = Buffer.byteLength(`${e("a")}\n`);
      expect(() => scanTail(fd, scan, size + 10, new Set(), shrank)).toThrow("shrank");
      const fresh = newTailScan(0, null, true);
      scanTail(fd, fresh, size, new Set(), shrank);
      expect(() => scanTail(fd, fresh, size - 1, new Set(), shrank)).toThrow("shrank");
    } finally {
      closeSync(fd);
    }
  });
});

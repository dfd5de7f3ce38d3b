import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_LINE_BYTES, readLines, readLinesSync, releaseReadChunks, type LineRef } from "./line-reader.js";

const dir = mkdtempSync(join(tmpdir(), "line-reader-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (content: string | Buffer) => {
  const p = join(dir, `f${n++}`);
  writeFileSync(p, content);
  return p;
};

async function collect(path: string, opts: Parameters<typeof readLines>[2] = {}) {
  const lines: { text: string; offset: number; line: number; terminated: boolean }[] = [];
  const res = await readLines(
    path,
    (r: LineRef) =>
      void lines.push({
        text: r.buf.toString("utf8", r.start, r.end),
        offset: r.offset,
        line: r.line,
        terminated: r.terminated,
      }),
    opts,
  );
  return { lines, res };
}

const TEXT = ["研究会话分支 🚀✅", "naïve café Grüße", "", "👩‍👩‍👧 emoji family", "short", "漢字".repeat(20)];

describe("readLines", () => {
  it.each([1, 3, 7, 64, 1 << 20])(
    "readAhead (chunkSize %i) gives exactly the lines of plain reads",
    async (chunkSize) => {
      const content = Buffer.from(TEXT.join("\n").repeat(5) + "\ntail without newline");
      const p = file(content);
      const plain = await collect(p, { chunkSize });
      const ahead = await collect(p, { chunkSize, readAhead: true });
      expect(ahead).toEqual(plain);
      expect(ahead.res.bytesRead).toBe(content.length);
      // Stopping early with a read in flight ends cleanly, and the buffers are reusable.
      let seen = 0;
      const stopped = await readLines(p, () => ++seen < 3, { chunkSize, readAhead: true });
      expect(stopped.stopped).toBe(true);
      expect(seen).toBe(3);
      expect(await collect(p, { chunkSize, readAhead: true })).toEqual(plain);
    },
  );

  it.each([1, 2, 3, 7, 64])(
    "chunkSize %i: multi-byte characters split across chunks come back whole",
    async (chunkSize) => {
      const content = TEXT.join("\n") + "\n";
      const buf = Buffer.from(content);
      const { lines, res } = await collect(file(buf), { chunkSize });
      expect(lines.map((l) => l.text)).toEqual(TEXT);
      expect(lines.map((l) => l.line)).toEqual(TEXT.map((_, i) => i + 1));
      // Byte offsets point at each line's first byte.
      for (const l of lines) expect(buf.toString("utf8", l.offset, l.offset + Buffer.byteLength(l.text))).toBe(l.text);
      expect(lines.every((l) => l.terminated)).toBe(true);
      expect(res).toEqual({ bytesRead: buf.length, endsWithNewline: true, stopped: false });
    },
  );

  it("an unterminated last line is reported with terminated: false", async () => {
    const { lines, res } = await collect(file("a\nb\n研究 cut"), { chunkSize: 3 });
    expect(lines.map((l) => [l.text, l.terminated])).toEqual([
      ["a", true],
      ["b", true],
      ["研究 cut", false],
    ]);
    expect(lines[2].offset).toBe(4);
    expect(res.endsWithNewline).toBe(false);
  });

  it("an empty file has no lines and needs no newline", async () => {
    const { lines, res } = await collect(file(""));
    expect(lines).toEqual([]);
    expect(res).toEqual({ bytesRead: 0, endsWithNewline: true, stopped: false });
  });

  it("CRLF: the \\r stays in the line (JSON.parse ignores it)", async () => {
    const { lines } = await collect(file("x\r\ny\r\n"), { chunkSize: 2 });
    expect(lines.map((l) => l.text)).toEqual(["x\r", "y\r"]);
  });

  it("maxBytes: the probe stops there and does not report the line it cut", async () => {
    const content = "first line\nsecond line\nthird line\n";
    const { lines, res } = await collect(file(content), { maxBytes: 15, chunkSize: 4 });
    expect(lines.map((l) => l.text)).toEqual(["first line"]);
    expect(res.stopped).toBe(true);
    expect(res.bytesRead).toBe(15);
  });

  it("maxBytes on a line boundary reports the whole line", async () => {
    const { lines, res } = await collect(file("abc\ndef\n"), { maxBytes: 4, chunkSize: 4 });
    expect(lines.map((l) => l.text)).toEqual(["abc"]);
    expect(res.stopped).toBe(true);
  });

  it("maxBytes larger than the file reads it all", async () => {
    const { lines, res } = await collect(file("abc\ndef"), { maxBytes: 1000, chunkSize: 3 });
    expect(lines.map((l) => [l.text, l.terminated])).toEqual([
      ["abc", true],
      ["def", false],
    ]);
    expect(res.stopped).toBe(false);
  });

  it("returning false from the callback stops early", async () => {
    const seen: string[] = [];
    const res = await readLines(
      file("1\n2\n3\n4\n"),
      (r) => {
        seen.push(r.buf.toString("utf8", r.start, r.end));
        return seen.length < 2;
      },
      { chunkSize: 1 },
    );
    expect(seen).toEqual(["1", "2"]);
    expect(res.stopped).toBe(true);
  });

  it("a line far longer than a chunk is assembled whole", async () => {
    const long = "é".repeat(10_000);
    const { lines } = await collect(file(`${long}\nend\n`), { chunkSize: 7 });
    expect(lines.map((l) => l.text)).toEqual([long, "end"]);
    expect(lines[1].offset).toBe(Buffer.byteLength(long) + 1);
  });
});

describe("readLines: what one line may cost", () => {
  const refs = async (path: string, opts: Parameters<typeof readLines>[2]) => {
    const out: { line: number; offset: number; kept: number; oversize?: number; terminated: boolean }[] = [];
    await readLines(
      path,
      (r) =>
        void out.push({
          line: r.line,
          offset: r.offset,
          kept: r.end - r.start,
          oversize: r.oversize,
          terminated: r.terminated,
        }),
      opts,
    );
    return out;
  };

  it.each([1, 7, 64, 1 << 20])(
    "a line past maxLineBytes is counted, not kept, and the lines around it are whole (chunkSize %i)",
    async (chunkSize) => {
      const long = "x".repeat(300);
      const p = file(`first\n${long}\nlast\n${"y".repeat(250)}`);
      const got = await refs(p, { chunkSize, maxLineBytes: 100 });
      expect(got).toEqual([
        { line: 1, offset: 0, kept: 5, oversize: undefined, terminated: true },
        { line: 2, offset: 6, kept: 0, oversize: 300, terminated: true },
        { line: 3, offset: 307, kept: 4, oversize: undefined, terminated: true },
        { line: 4, offset: 312, kept: 0, oversize: 250, terminated: false },
      ]);
    },
  );

  it("a session ending in a sparse 1 GiB NUL tail: no line handed over holds more than the cap", async () => {
    const p = file('{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}\n');
    truncateSync(p, 66 + 1024 ** 3);
    let biggest = 0;
    let oversize = 0;
    await readLines(p, (r) => {
      biggest = Math.max(biggest, r.buf.length);
      oversize = r.oversize ?? oversize;
    });
    expect(oversize).toBe(1024 ** 3);
    expect(biggest).toBeLessThanOrEqual(MAX_LINE_BYTES);
  });
});

describe("readLinesSync", () => {
  const all = (r: LineRef) => ({
    text: r.buf.toString("utf8", r.start, r.end),
    offset: r.offset,
    line: r.line,
    terminated: r.terminated,
    oversize: r.oversize,
  });
  it.each([1, 7, 64, 1 << 20])(
    "gives the lines readLines gives, oversize ones counted (chunkSize %i)",
    async (chunkSize) => {
      const p = file(`${TEXT.join("\n")}\n${"x".repeat(300)}\nlast\n${"y".repeat(250)}`);
      const async: ReturnType<typeof all>[] = [];
      const whole = await readLines(p, (r) => void async.push(all(r)), { chunkSize, maxLineBytes: 100 });
      const sync: ReturnType<typeof all>[] = [];
      expect(readLinesSync(p, (r) => void sync.push(all(r)), { chunkSize, maxLineBytes: 100 })).toEqual({
        stopped: false,
        bytesRead: whole.bytesRead,
      });
      expect(sync).toEqual(async);
      let seen = 0;
      const cut = await readLines(p, () => ++seen < 2, { chunkSize });
      seen = 0;
      expect(readLinesSync(p, () => ++seen < 2, { chunkSize })).toEqual({ stopped: true, bytesRead: cut.bytesRead });
      expect(seen).toBe(2);
    },
  );

  it("throws when the file cannot be read", () => {
    expect(() => readLinesSync(join(dir, "gone"), () => {})).toThrow(/ENOENT/);
  });
});

describe("the read chunks kept between files", () => {
  it("are let go of when a command's scan is over (a megabyte each), and reads after take new ones: the same lines", async () => {
    const p = file("one\ntwo\n");
    const before = await collect(p);
    // The chunk a read gave back is kept for the next read, until let go of.
    const held = process.memoryUsage().arrayBuffers;
    releaseReadChunks();
    expect(held - process.memoryUsage().arrayBuffers).toBeGreaterThanOrEqual(1 << 20);
    const after = await collect(p);
    expect(after).toEqual(before);
    expect(after.lines.map((l) => l.text)).toEqual(["one", "two"]);
  });
});

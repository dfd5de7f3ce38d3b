import {
  appendFileSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AppendRefused, appendEntry, freshId, LINE_WAIT_MAX_MS, TORN_AFTER_MS } from "./append-entry.js";
import { renameSession } from "./rename.js";

const dir = mkdtempSync(join(tmpdir(), "append-entry-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const j = (o: unknown) => JSON.stringify(o);
const HEADER = j({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/x" });
const e = (id: string, parentId: string | null) =>
  j({ type: "custom", id, parentId, timestamp: "2026-01-01T00:00:01.000Z", customType: "t" });
const file = (content: string) => {
  const p = join(dir, `f${n++}.jsonl`);
  writeFileSync(p, content);
  return p;
};
const lines = (p: string) => readFileSync(p, "utf8").split("\n");

describe("appendEntry", () => {
  it("appends one line whose parentId is the last entry, with a fresh 8-hex id", async () => {
    const before = `${HEADER}\n${e("aaaaaaaa", null)}\n${e("bbbbbbbb", "aaaaaaaa")}\n`;
    const p = file(before);
    const entry = await renameSession(p, "n");
    const after = readFileSync(p, "utf8");
    expect(after.startsWith(before)).toBe(true);
    expect(JSON.parse(after.slice(before.length))).toEqual(entry);
    expect(entry).toMatchObject({ type: "session_info", parentId: "bbbbbbbb", name: "n" });
    expect(entry.id).toMatch(/^[0-9a-f]{8}$/);
    expect(after.endsWith("}\n")).toBe(true);
  });

  it("adds the missing newline first, leaving a cut last line intact on its own line", async () => {
    const cut = e("cccccccc", "bbbbbbbb").slice(0, 25);
    const p = file(`${HEADER}\n${e("aaaaaaaa", null)}\n${cut}`);
    const entry = await renameSession(p, "x");
    const ls = lines(p);
    expect(ls[2]).toBe(cut);
    expect(JSON.parse(ls[3]).id).toBe(entry.id);
    expect(entry.parentId).toBe("aaaaaaaa");
    expect(ls[4]).toBe("");
  });

  it("a last line without newline that is complete JSON is the parent", async () => {
    const p = file(`${HEADER}\n${e("aaaaaaaa", null)}\n${e("bbbbbbbb", "aaaaaaaa")}`);
    const entry = await renameSession(p, "x");
    expect(entry.parentId).toBe("bbbbbbbb");
    expect(lines(p)[2]).toBe(e("bbbbbbbb", "aaaaaaaa"));
  });

  it("the parent follows lines another writer appended after the index was read", async () => {
    const p = file(`${HEADER}\n${e("aaaaaaaa", null)}\n`);
    const entry = await appendEntry(
      p,
      (ctx) => ({ type: "custom", id: ctx.id, parentId: ctx.parentId, timestamp: ctx.timestamp, customType: "ours" }),
      // validate runs between reading the index and writing: pi appends meanwhile.
      () => appendFileSync(p, `${e("dddddddd", "aaaaaaaa")}\n${e("eeeeeeee", "dddddddd")}\n`),
    );
    expect(entry!.parentId).toBe("eeeeeeee");
    const ls = lines(p);
    expect(JSON.parse(ls[4])).toMatchObject({ customType: "ours", parentId: "eeeeeeee" });
  });

  it("another writer's half-written line: newline first, parent is the last complete entry", async () => {
    const p = file(`${HEADER}\n${e("aaaaaaaa", null)}\n`);
    const entry = await appendEntry(
      p,
      (ctx) => ({ type: "custom", id: ctx.id, parentId: ctx.parentId, timestamp: ctx.timestamp }),
      () => appendFileSync(p, `${e("dddddddd", "aaaaaaaa")}\n{"type":"cus`),
    );
    expect(entry!.parentId).toBe("dddddddd");
    expect(lines(p)[3]).toBe('{"type":"cus');
  });

  it("a line another writer is still writing: waits for its end, then appends after it (no empty line, no split)", async () => {
    const p = file(`${HEADER}\n${e("aaaaaaaa", null)}\n`);
    const whole = e("dddddddd", "aaaaaaaa");
    const entry = await appendEntry(
      p,
      (ctx) => ({ type: "custom", id: ctx.id, parentId: ctx.parentId, timestamp: ctx.timestamp, customType: "ours" }),
      () => {
        // The writer's line arrives in two writes, the second 8 ms later.
        appendFileSync(p, whole.slice(0, 20));
        setTimeout(() => appendFileSync(p, `${whole.slice(20)}\n`), 8);
      },
    );
    expect(entry!.parentId).toBe("dddddddd");
    const ls = lines(p);
    expect(ls[2]).toBe(whole);
    expect(JSON.parse(ls[3])).toMatchObject({ customType: "ours", parentId: "dddddddd" });
    expect(ls).toHaveLength(5);
    expect(ls[4]).toBe("");
  });

  it("a writer pausing 40 ms inside its line is never split: we wait for its newline", async () => {
    const p = file(`${HEADER}\n${e("aaaaaaaa", null)}\n`);
    const whole = e("dddddddd", "aaaaaaaa");
    const entry = await appendEntry(
      p,
      (ctx) => ({ type: "custom", id: ctx.id, parentId: ctx.parentId, timestamp: ctx.timestamp, customType: "ours" }),
      () => {
        appendFileSync(p, whole.slice(0, 30));
        setTimeout(() => appendFileSync(p, `${whole.slice(30)}\n`), 40);
      },
    );
    const ls = lines(p);
    expect(ls[2]).toBe(whole);
    expect(JSON.parse(ls[3])).toMatchObject({ customType: "ours", parentId: "dddddddd" });
    expect(entry!.parentId).toBe("dddddddd");
  });

  it("a writer that keeps writing one line without its newline is refused after the bounded wait", async () => {
    const p = file(`${HEADER}\n${e("aaaaaaaa", null)}\n`);
    let timer: NodeJS.Timeout | undefined;
    const t0 = Date.now();
    await expect(
      appendEntry(
        p,
        (ctx) => ({ type: "custom", id: ctx.id, parentId: ctx.parentId, timestamp: ctx.timestamp }),
        () => {
          appendFileSync(p, '{"type":"custom","text":"');
          timer = setInterval(() => appendFileSync(p, "x"), 50);
        },
      ),
    ).rejects.toThrow(/still writing its last line/);
    clearInterval(timer);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(LINE_WAIT_MAX_MS);
    const ls = lines(p);
    expect(ls).toHaveLength(3);
    expect(ls[2]).toMatch(/^\{"type":"custom","text":"x+$/);
  }, 15_000);

  it("a file torn long ago (its mtime old) gets its newline at once", async () => {
    const cut = e("cccccccc", "aaaaaaaa").slice(0, 25);
    const p = file(`${HEADER}\n${e("aaaaaaaa", null)}\n${cut}`);
    utimesSync(p, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const t0 = Date.now();
    await renameSession(p, "x");
    expect(Date.now() - t0).toBeLessThan(TORN_AFTER_MS);
    expect(lines(p)[2]).toBe(cut);
  });

  it("refuses a file that shrank while it was being read (the read ends early), and writes nothing", async () => {
    // Big enough that the index read takes several reads; it is cut to a third meanwhile.
    const body = Array.from({ length: 60_000 }, (_, i) =>
      e(`x${String(i).padStart(7, "0")}`, i ? `x${String(i - 1).padStart(7, "0")}` : null),
    ).join("\n");
    const p = file(`${HEADER}\n${body}\n`);
    const third = Math.floor(readFileSync(p).length / 3);
    const pending = renameSession(p, "x");
    setImmediate(() => truncateSync(p, third));
    await expect(pending).rejects.toThrow(AppendRefused);
    expect(readFileSync(p).length).toBe(third);
  });

  it("refuses a file ending in a line longer than a line may be (a sparse NUL tail), never holding it in memory", async () => {
    const p = file(`${HEADER}\n${e("aaaaaaaa", null)}\n`);
    const size = readFileSync(p).length + 100 * 1024 * 1024;
    truncateSync(p, size);
    utimesSync(p, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await expect(renameSession(p, "x")).rejects.toThrow(/ends in a line of 104857600 bytes without a newline/);
    expect(statSync(p).size).toBe(size);
  });

  it("refuses a file that shrank after it was read, and writes nothing", async () => {
    const p = file(`${HEADER}\n${e("aaaaaaaa", null)}\n${e("bbbbbbbb", "aaaaaaaa")}\n`);
    let size = 0;
    await expect(
      appendEntry(
        p,
        (ctx) => ({ type: "custom", id: ctx.id, parentId: ctx.parentId, timestamp: ctx.timestamp }),
        () => {
          truncateSync(p, HEADER.length + 1);
          size = readFileSync(p).length;
        },
      ),
    ).rejects.toThrow(AppendRefused);
    expect(readFileSync(p, "utf8")).toBe(`${HEADER}\n`);
    expect(size).toBe(HEADER.length + 1);
  });

  it("refuses a file replaced under the same name, and writes nothing to either", async () => {
    const p = file(`${HEADER}\n${e("aaaaaaaa", null)}\n`);
    const replacement = `${HEADER}\n${e("aaaaaaaa", null)}\n${e("ffffffff", "aaaaaaaa")}\n`;
    await expect(
      appendEntry(
        p,
        (ctx) => ({ type: "custom", id: ctx.id, parentId: ctx.parentId, timestamp: ctx.timestamp }),
        () => {
          const tmp = join(dir, "replacement.tmp");
          writeFileSync(tmp, replacement);
          renameSync(tmp, p);
        },
      ),
    ).rejects.toThrow(/replaced/);
    expect(readFileSync(p, "utf8")).toBe(replacement);
  });

  it("a session deleted meanwhile is not recreated", async () => {
    const p = file(`${HEADER}\n`);
    await expect(
      appendEntry(
        p,
        (ctx) => ({ type: "custom", id: ctx.id, parentId: ctx.parentId, timestamp: ctx.timestamp }),
        () => rmSync(p),
      ),
    ).rejects.toThrow(/ENOENT/);
    expect(() => readFileSync(p)).toThrow();
  });

  it("a v1 file: parentId null (pi re-chains v1 ids on open)", async () => {
    const p = file(
      `${j({ type: "session", id: "s1" })}\n${j({ type: "message", message: { role: "user", content: "x" } })}\n`,
    );
    const entry = await renameSession(p, "v1 name");
    expect(entry.parentId).toBeNull();
  });
});

describe("freshId", () => {
  it("skips ids already used in the file", () => {
    const seen: string[] = [];
    const id = freshId({ has: (x) => (seen.push(x), seen.length < 5) });
    expect(seen).toHaveLength(5);
    expect(id).toBe(seen[4]);
    expect(id).toMatch(/^[0-9a-f]{8}$/);
  });

  it("falls back to a full UUID after 100 collisions, as pi does", () => {
    expect(freshId({ has: () => true })).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

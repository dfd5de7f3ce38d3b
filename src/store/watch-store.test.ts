import { appendFileSync, mkdirSync, mkdtempSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { watchStore, type FileState, type StoreChanges } from "./watch-store.js";

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

const header = (id: string) =>
  JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-05-02T09:14:03.221Z", cwd: "/p" }) + "\n";
const userLine = (id: string, text: string) =>
  JSON.stringify({
    type: "message",
    id,
    parentId: null,
    timestamp: "2026-05-02T09:15:00.000Z",
    message: { role: "user", content: text, timestamp: 5 },
  }) + "\n";

/** Waits for the next batch of changes (events, or the poll), with a generous bound. */
function nextChanges(sink: StoreChanges[], timeoutMs = 5000): Promise<StoreChanges> {
  const start = sink.length;
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const tick = () => {
      if (sink.length > start) resolve(sink[start]);
      else if (Date.now() - t0 > timeoutMs) reject(new Error("no change reported"));
      else setTimeout(tick, 20);
    };
    tick();
  });
}

/** A watcher on `root` that keeps `known` as the browser does and records every change; closed and removed after the test. */
function watched(root: string, pollMs: number, debounceMs = 20) {
  const known = new Map<string, FileState>();
  const seen: StoreChanges[] = [];
  const w = watchStore(
    root,
    () => known,
    (c) => {
      seen.push(c);
      for (const s of c.updated) known.set(s.path, { bytes: s.bytes, mtimeMs: s.mtimeMs });
      for (const p of c.removed) known.delete(p);
    },
    { debounceMs, pollMs },
  );
  cleanups.push(() => {
    w.close();
    rmSync(root, { recursive: true, force: true });
  });
  return { known, seen };
}

describe("watchStore", () => {
  it("reports created, appended and deleted sessions", async () => {
    const folder = join(mkdtempSync(join(tmpdir(), "pi-sessions-watch-")), "--p--");
    mkdirSync(folder);
    const { known, seen } = watched(dirname(folder), 200);

    const file = join(folder, "a.jsonl");
    writeFileSync(file, header("a") + userLine("u1", "first"));
    const created = await nextChanges(seen);
    expect(created.updated.map((s) => [s.id, s.firstMessage])).toEqual([["a", "first"]]);

    appendFileSync(file, userLine("u2", "second"));
    const grown = await nextChanges(seen);
    expect(grown.updated[0].messageCount).toBe(2);
    expect(known.get(file)!.bytes).toBe(statSync(file).size);

    unlinkSync(file);
    const gone = await nextChanges(seen);
    expect(gone.removed).toEqual([file]);
  });

  it("hears a project folder made after it started, and the sessions in it, by events alone", async () => {
    const root = mkdtempSync(join(tmpdir(), "pi-sessions-watch-"));
    mkdirSync(join(root, "--old--"));
    // A poll far beyond the test's bounds: only file events can report these changes.
    const { seen } = watched(root, 600_000);
    const folder = join(root, "--new--");
    mkdirSync(folder);
    const file = join(folder, "b.jsonl");
    writeFileSync(file, header("b") + userLine("u1", "first"));
    let change = await nextChanges(seen);
    // The folder's creation may be heard before the file is in it: wait for the file.
    while (!change.updated.some((s) => s.path === file)) change = await nextChanges(seen);
    appendFileSync(file, userLine("u2", "second"));
    const grown = await nextChanges(seen);
    expect(grown.updated.map((s) => [s.path, s.messageCount])).toEqual([[file, 2]]);
  });

  it("under steady appends elsewhere, a new session is reported within a second", async () => {
    const root = mkdtempSync(join(tmpdir(), "pi-sessions-watch-"));
    const folder = join(root, "--p--");
    mkdirSync(folder);
    const busy = join(folder, "busy.jsonl");
    writeFileSync(busy, header("busy") + userLine("u0", "first"));
    // The default quiet wait (120 ms), longer than the gap between appends; no poll.
    const { seen } = watched(root, 600_000, 120);
    let n = 0;
    const writer = setInterval(() => appendFileSync(busy, userLine(`u${++n}`, "more")), 30);
    cleanups.unshift(() => clearInterval(writer));
    await new Promise((r) => setTimeout(r, 300));
    const fresh = join(folder, "fresh.jsonl");
    const t0 = Date.now();
    writeFileSync(fresh, header("fresh") + userLine("u1", "new session"));
    for (;;) {
      const change = await nextChanges(seen, 3000);
      if (change.updated.some((s) => s.path === fresh)) break;
    }
    expect(Date.now() - t0).toBeLessThan(1000);
    clearInterval(writer);
  });
});

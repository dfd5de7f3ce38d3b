// How the first `list` (no index yet) hands its answer to stdout: the text table a few lines
// at a time, and --json's buffers let go of as soon as stdout is done with them (issue 35:
// the first `list` at 50,000 sessions within 210 MB, stdout to a file).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { run } from "../src/cli/main.js";
import type { CliIO } from "../src/cli/common/io.js";
import { runCli } from "./helpers/cli.js";
import { cleanupTmp, makeTmpDir, settle } from "./helpers/tmp-store.js";

afterEach(() => cleanupTmp());

/** A store of `n` small sessions in one project's folder. */
function storeOf(n: number): string {
  const store = makeTmpDir();
  const dir = join(store, "--home-dev-app--");
  mkdirSync(dir);
  for (let i = 0; i < n; i++) {
    const id = `01a1fcb4-0000-7000-8000-${String(i).padStart(12, "0")}`;
    const at = new Date(Date.UTC(2026, 10, 21, 7, 0, i)).toISOString();
    const lines = [
      { type: "session", version: 3, id, timestamp: at, cwd: "/home/dev/app" },
      { type: "message", id: "u1", parentId: null, timestamp: at, message: { role: "user", content: `task ${i}` } },
    ];
    writeFileSync(
      join(dir, `${at.replace(/[:.]/g, "-")}_${id}.jsonl`),
      lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
    );
  }
  settle(store);
  return store;
}

/** An io that takes bytes as a pipe does, each buffer given kept (and a copy of it); `held`: stdout never done with them. */
function bytesIO(cacheDir: string, held = false) {
  const given: Uint8Array[] = [];
  const copies: Buffer[] = [];
  const writes: string[] = [];
  const io: CliIO = {
    stdout: (t) => void writes.push(t),
    stdoutBytes: (b) => {
      given.push(b);
      copies.push(Buffer.from(b));
    },
    drained: () => (held ? new Promise<void>(() => {}) : undefined),
    stderr: () => {},
    cwd: "/",
    env: { PI_SESSIONS_CACHE_DIR: cacheDir },
    isTTY: false,
  };
  return { io, given, copies, writes };
}

describe("the first list's writes", () => {
  it("gives the text table to stdout 128 lines at a time at most, the same table", async () => {
    const store = storeOf(300);
    const whole = await runCli(["list", "--all", "--session-dir", store], { env: { PI_SESSIONS_INDEX: "0" } });
    const { io, writes } = bytesIO(makeTmpDir());
    expect(await run(["list", "--all", "--session-dir", store], io)).toBe(0);
    expect(writes.join("")).toBe(whole.stdout);
    expect(whole.stdout.split("\n").length).toBeGreaterThan(300);
    // A chunk's lines alive across the young generation's collections grew V8's heap again (list.ts).
    expect(writes.length).toBeGreaterThan(2);
    for (const w of writes) expect(w.split("\n").length - 1).toBeLessThanOrEqual(128);
  });

  it("lets go of each --json buffer once stdout is done with it, and of none it may still hold", async () => {
    const store = storeOf(300);
    const whole = await runCli(["list", "--all", "--json", "--session-dir", store], {
      env: { PI_SESSIONS_INDEX: "0" },
    });
    const done = bytesIO(makeTmpDir());
    expect(await run(["list", "--all", "--json", "--session-dir", store], done.io)).toBe(0);
    expect(Buffer.concat(done.copies).toString()).toBe(whole.stdout);
    const big = done.given.filter((_, i) => done.copies[i].length >= 8192);
    expect(big.length).toBeGreaterThan(0);
    // Freed (freeBytes): its memory given back at once, the buffer empty from then on.
    for (const b of big) expect(b.byteLength).toBe(0);
    // A stdout that still holds what it was given (a pipe its reader is behind on): none freed.
    const held = bytesIO(makeTmpDir(), true);
    expect(await run(["list", "--all", "--json", "--session-dir", store], held.io)).toBe(0);
    expect(Buffer.concat(held.copies).toString()).toBe(whole.stdout);
    for (const [i, b] of held.given.entries()) expect(b.byteLength).toBe(held.copies[i].length);
  });
});

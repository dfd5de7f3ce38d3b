// The text `list` relaunched on an unchanged store prints the answer it kept (issue 35: a
// relaunch costs the store's stat, not 50,000 rows read and formatted again), its ages made
// by the clock of this run, and follows the files as soon as one changes: appended to, a
// session new or deleted, an mtime set back, a file that cannot be read.
import { symlinkSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { indexPathFor } from "../src/index/index-location.js";
import { AnswerCache } from "../src/cli/common/answer-cache.js";
import { textListKey } from "../src/cli/commands/list.js";
import { runCli } from "./helpers/cli.js";
import {
  changeFourWays,
  cleanupTmp,
  copyStore,
  makeTmpDir,
  REPO,
  settle,
  storeFiles as files,
} from "./helpers/tmp-store.js";

afterEach(() => {
  vi.useRealTimers();
  cleanupTmp();
});

/** The clock of every run from now on (the ages' and the racy check's). */
const clockAt = (t: number) => vi.setSystemTime(t);

/** A copy of the generated store, indexed: `run(args, on)` lists it with the index or without it (the files' own answer). */
async function indexedStore() {
  const store = copyStore(join(REPO, "fixtures", "pi-generated", "agent", "sessions"));
  settle(store);
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
  const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
  const run = async (args: string[], on = true, columns?: number) => {
    const r = await runCli([...args, "--session-dir", store], {
      env: on ? env : { ...env, PI_SESSIONS_INDEX: "0" },
      cwd: "/home/dev/src/app",
      columns,
    });
    return { code: r.code, stdout: r.stdout, stderr: r.stderr };
  };
  expect((await run(["index"])).code).toBe(0);
  const cache = new AnswerCache(indexPathFor(store, env)!);
  return { store, run, cache };
}

const ASKS: Array<{ args: string[]; columns?: number }> = [
  { args: ["list", "--all"] },
  { args: ["list", "--all", "--sort", "created"] },
  { args: ["list", "--all", "--sort", "name"] },
  { args: ["list", "--all", "--sort", "messages"] },
  { args: ["list", "--all", "--sort", "size"] },
  { args: ["list"] },
  { args: ["list", "--cwd", "/nowhere"] },
  { args: ["list", "--all", "-q"] },
  { args: ["list", "--all"], columns: 60 },
  { args: ["list", "--all"], columns: 80 },
  { args: ["list", "--all", "--sort", "name"], columns: 120 },
];
const KEY = textListKey("", "recent", undefined);

describe("the text list relaunched", () => {
  it("says what the files say, kept or not, after each change pi or the user makes", async () => {
    const { store, run, cache } = await indexedStore();
    /** Each question with the index as without it, three times over (the second run keeps, the third is served). */
    const same = async (what: string) => {
      for (const { args, columns } of ASKS) {
        const off = await run(args, false, columns);
        expect(off.code).toBe(0);
        for (let i = 0; i < 3; i++)
          expect({ what, args, columns, i, on: await run(args, true, columns) }).toEqual({
            what,
            args,
            columns,
            i,
            on: off,
          });
      }
    };
    await same("as indexed");
    // Kept: the lines without their ages.
    const kept = cache.latest(KEY);
    expect(kept?.out.length).toBeGreaterThan(0);
    await changeFourWays(store, same, true);
  });

  it("makes each age by the clock of the run: a row 59 minutes old turns 1h, a column 4 wide as months pass", async () => {
    const { store, run, cache } = await indexedStore();
    // The files last written long before any clock below (a file newer than the clock is "racy": nothing kept).
    const long = new Date("2026-01-01T00:00:00Z");
    for (const f of files(store)) utimesSync(f, long, long);
    const rows = JSON.parse((await run(["list", "--all", "--json"], false)).stdout) as Array<{ modified: string }>;
    const newest = Math.max(...rows.map((r) => Date.parse(r.modified)));
    const minute = 60_000;
    // Kept at 59 minutes (the second run keeps), and marked as only a test would: what shows it was served.
    clockAt(newest + 59 * minute + 10_000);
    for (let i = 0; i < 2; i++) expect((await run(["list", "--all"])).code).toBe(0);
    const kept = cache.latest(KEY)!;
    const title = (await run(["list", "--all"])).stdout.split("\n")[1].split("  ").pop()!;
    const bytes = Buffer.from(kept.out);
    const mark = "K".repeat(Buffer.byteLength(title));
    bytes.write(mark, bytes.indexOf(title));
    cache.put(KEY, kept.fingerprint, { out: bytes, err: kept.err });
    const at = async (t: number) => {
      clockAt(t);
      for (const { args, columns } of ASKS) {
        const off = await run(args, false, columns);
        const on = await run(args, true, columns);
        // The pipe's answer (with -q too: the same question) is the one marked; the others, kept or made again, are the files' own.
        if (args.filter((a) => a !== "-q").length === 2 && columns === undefined)
          on.stdout = on.stdout.replace(mark, title);
        expect({ t, args, columns, on }).toEqual({ t, args, columns, on: off });
      }
      const said = (await run(["list", "--all"])).stdout;
      expect(said).toContain(mark);
      return said;
    };
    expect(await at(newest + 59 * minute + 30_000)).toMatch(/\n59m /);
    expect(await at(newest + 60 * minute + 30_000)).toMatch(/\n1h {2}/);
    expect(await at(newest + 335 * 24 * 60 * minute)).toMatch(/\n11mo /);
    expect(await at(newest + 2 * 365 * 24 * 60 * minute)).toMatch(/\n2y {2}/);
  });

  it("prints the kept answer itself (the rows are not read again) while the store is unchanged", async () => {
    const { run, cache } = await indexedStore();
    for (let i = 0; i < 2; i++) expect((await run(["list", "--all"])).code).toBe(0);
    const kept = cache.latest(KEY)!;
    const bytes = Buffer.from(kept.out);
    const title = (await run(["list", "--all"])).stdout.split("\n")[1].split("  ").pop()!;
    const at = bytes.indexOf(title);
    expect(at).toBeGreaterThan(0);
    // A kept answer for this very store, its text altered as only a test would: it is what is said.
    bytes.write("KEPT-".padEnd(Math.min(5, Buffer.byteLength(title)), "-").slice(0, 5), at);
    cache.put(KEY, kept.fingerprint, { out: bytes, err: kept.err });
    expect((await run(["list", "--all"])).stdout.split("\n")[1]).toContain("KEPT-");
    // Even so, no control reaches the terminal: an ESC put in is sanitized away.
    bytes.write("\u001b[2J", at);
    cache.put(KEY, kept.fingerprint, { out: bytes, err: kept.err });
    const said = (await run(["list", "--all"])).stdout;
    expect(said).not.toContain("\u001b");
    // The sequence removed whole.
    expect(said.split("\n")[1]).not.toMatch(/KEPT|2J/);
  });

  it("is not served by a Node whose Unicode rules differ (a cell's display width is measured by them)", async () => {
    const { run, cache } = await indexedStore();
    for (let i = 0; i < 2; i++) expect((await run(["list", "--all"])).code).toBe(0);
    const kept = cache.latest(KEY)!;
    const bytes = Buffer.from(kept.out);
    const title = (await run(["list", "--all"])).stdout.split("\n")[1].split("  ").pop()!;
    bytes.write("K".repeat(Buffer.byteLength(title)), bytes.indexOf(title));
    cache.put(KEY, kept.fingerprint, { out: bytes, err: kept.err });
    expect((await run(["list", "--all"])).stdout).toContain("K".repeat(Buffer.byteLength(title)));
    const real = Object.getOwnPropertyDescriptor(process.versions, "unicode")!;
    try {
      Object.defineProperty(process.versions, "unicode", { ...real, value: "1.1" });
      expect(await run(["list", "--all"])).toEqual(await run(["list", "--all"], false));
    } finally {
      Object.defineProperty(process.versions, "unicode", real);
    }
  });

  it("says what the files say when the answer kept for this store is not a kept table (another layout's)", async () => {
    const { run, cache } = await indexedStore();
    for (let i = 0; i < 2; i++) expect((await run(["list", "--all"])).code).toBe(0);
    const kept = cache.latest(KEY)!;
    const bytes = Buffer.from(kept.out);
    bytes.write("PLT0", 0);
    // Its text altered too: were it taken as a table, this would show.
    const title = (await run(["list", "--all"])).stdout.split("\n")[1].split("  ").pop()!;
    bytes.write("K".repeat(Buffer.byteLength(title)), bytes.indexOf(title));
    cache.put(KEY, kept.fingerprint, { out: bytes, err: kept.err });
    expect(await run(["list", "--all"])).toEqual(await run(["list", "--all"], false));
  });

  it("keeps its answer while a file discovery could not read stays so (its fixing changes the fingerprint)", async () => {
    const { store, run, cache } = await indexedStore();
    // A link to nothing: discovery cannot stat it (as root, where modes do not stop a read).
    symlinkSync(join(store, "gone"), join(files(store)[0], "..", "2026-11-20T10-00-01-000Z_b.jsonl"));
    settle(store);
    for (let i = 0; i < 3; i++) {
      const off = await run(["list", "--all"], false);
      expect(off.stderr).toContain("2026-11-20T10-00-01-000Z_b.jsonl");
      expect(await run(["list", "--all"])).toEqual(off);
    }
    expect(cache.latest(KEY)).toBeDefined();
  });
});

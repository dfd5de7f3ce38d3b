// A search on a store whose text is not indexed reads it, and starts `pi-sessions index` on
// its own in the background (src/cli/common/index-later.ts), so the next search answers
// from the index. The built program as a real process: only the launcher starts children.
// PI_SESSIONS_INDEX_INLINE_BYTES=0 leaves even this small store to the background (a real
// store must hold more than 64 MiB of unindexed text for that).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, symlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { indexerLockPath, indexerLockState, takeIndexerLock } from "../src/cli/common/indexer-lock.js";
import { BACKGROUND_ENV } from "../src/cli/common/index-later.js";
import { indexPathFor } from "../src/index/index-location.js";
import { runCli } from "./helpers/cli.js";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE, REPO, settle } from "./helpers/tmp-store.js";

const CLI = join(REPO, "dist", "bundle", "cli.js");

afterAll(cleanupTmp);

function setUp(env: NodeJS.ProcessEnv = {}) {
  const store = copyStore(PI_STORE);
  settle(store);
  const cache = makeTmpDir("pi-sessions-cache-");
  const fullEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: makeTmpDir("pi-sessions-home-"),
    PI_SESSIONS_CACHE_DIR: cache,
    PI_SESSIONS_INDEX_INLINE_BYTES: "0",
    ...env,
  };
  const pi = (args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args, "--session-dir", store], {
      cwd: REPO,
      encoding: "utf8",
      env: fullEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const indexPath = indexPathFor(store, fullEnv)!;
  return { store, cache, pi, indexPath, env: fullEnv };
}

/**
 * Waits (bounded) until the background indexer has come and gone: the index holds every
 * session's text (and tool output) and no indexer holds the lock.
 */
async function indexerDone(store: string, env: NodeJS.ProcessEnv, indexPath: string): Promise<Status> {
  const until = Date.now() + 60_000;
  for (;;) {
    const status = JSON.parse(
      (await runCli(["index", "--status", "--json", "--session-dir", store], { env })).stdout,
    ) as Status;
    const done = status.textIndexed === status.sessions && status.toolsIndexed === status.sessions;
    if (done && indexerLockState(indexPath) === "free") return status;
    if (Date.now() > until) throw new Error("the background index did not finish within 60 s");
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Status {
  sessions: number;
  textIndexed: number;
  toolsIndexed: number;
}

describe("search on a store whose text is not indexed", () => {
  it("reads it, indexes it in the background, and the next search answers from the index", async () => {
    const { pi, indexPath, store, env } = setUp();
    const first = pi(["search", "--all", "--json", "vitest"]);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe(
      "pi-sessions: 30 sessions are not in the index yet and are read instead; indexing them in the background, at low priority, for the next search\n",
    );
    // The lock is there at once (the search looked at it before starting the indexer).
    expect(existsSync(indexerLockPath(indexPath))).toBe(true);
    expect(await indexerDone(store, env, indexPath)).toMatchObject({ sessions: 30, textIndexed: 30, toolsIndexed: 30 });
    // Another question (not a kept answer): answered from the index, with nothing left to read.
    const second = pi(["search", "--all", "--json", "vitest", "-n", "5"]);
    expect(second.stderr).toBe("");
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual((JSON.parse(first.stdout) as unknown[]).slice(0, 5));
    // Beside the index, nothing but its own files (the lock among them).
    const base = basename(indexPath);
    for (const name of readdirSync(dirname(indexPath))) expect(name.startsWith(base)).toBe(true);
  });

  it("with --tools, the tool output is indexed too", async () => {
    const { pi, indexPath, store, env } = setUp();
    const first = pi(["search", "--all", "--json", "--tools", "package.json"]);
    expect(first.stderr).toMatch(/indexing them in the background/);
    await indexerDone(store, env, indexPath);
    const second = pi(["search", "--all", "--json", "--tools", "package.json", "-n", "7"]);
    expect(second.stderr).toBe("");
    expect(JSON.parse(second.stdout)).toEqual((JSON.parse(first.stdout) as unknown[]).slice(0, 7));
  });

  it("starts no second indexer while one runs", () => {
    const { pi, indexPath } = setUp();
    // Scanned once (the summaries kept), so the index's folder is there for the lock.
    expect(pi(["list", "--all", "--json"]).code).toBe(0);
    const lock = takeIndexerLock(indexPath)!;
    try {
      const r = pi(["search", "--all", "zebra-never-said"]);
      expect(r.stderr).toBe(
        "pi-sessions: 30 sessions are not in the index yet and are read instead; they are being indexed in the background\nno match\n",
      );
    } finally {
      lock.release();
    }
  });

  it("the background indexer ends at once, doing nothing, when another holds the lock", async () => {
    const { store, indexPath, env } = setUp();
    expect((await runCli(["list", "--all", "--json", "--session-dir", store], { env })).code).toBe(0);
    const lock = takeIndexerLock(indexPath)!;
    try {
      const r = await runCli(["index", "--session-dir", store], { env: { ...env, [BACKGROUND_ENV]: "1" } });
      expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    } finally {
      lock.release();
    }
    const status = JSON.parse(
      (await runCli(["index", "--status", "--json", "--session-dir", store], { env })).stdout,
    ) as Status;
    expect(status.textIndexed).toBe(0);
  });

  it("PI_SESSIONS_INDEX_BACKGROUND=0: today's advice, and no indexer (not even a look at its lock)", () => {
    const { pi, indexPath } = setUp({ PI_SESSIONS_INDEX_BACKGROUND: "0" });
    const r = pi(["search", "--all", "zebra-never-said"]);
    expect(r.stderr).toBe(
      "pi-sessions: 30 sessions are not in the index yet and are read instead (run 'pi-sessions index' once, or open the browser, to index them)\nno match\n",
    );
    expect(existsSync(indexerLockPath(indexPath))).toBe(false);
  });

  it("a cache that cannot be used (its folder a symbolic link): no indexer", () => {
    const elsewhere = makeTmpDir("pi-sessions-elsewhere-");
    const link = join(makeTmpDir(), "cache");
    symlinkSync(elsewhere, link);
    const { pi } = setUp({ PI_SESSIONS_CACHE_DIR: link });
    const r = pi(["search", "--all", "zebra-never-said"]);
    expect(r.stderr).toMatch(/symbolic link/);
    expect(r.stderr).not.toMatch(/background/);
    // (The launcher's code cache may be there: no index, no lock.)
    expect(existsSync(join(elsewhere, "index"))).toBe(false);
  });

  it("PI_SESSIONS_INDEX=0: no index, no indexer, nothing said", () => {
    const { pi, cache } = setUp({ PI_SESSIONS_INDEX: "0" });
    const r = pi(["search", "--all", "zebra-never-said"]);
    expect(r.stderr).toBe("no match\n");
    expect(existsSync(join(cache, "index"))).toBe(false);
  });
});

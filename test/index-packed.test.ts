import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir, REPO } from "./helpers/tmp-store.js";

/*
 * `index` from nothing leaves its file packed: the B-trees it filled in no order (the paths'
 * index, the lines' index by file) take no more pages than SQLite's VACUUM would give them.
 */

const CLI = join(REPO, "dist", "bundle", "cli.js");

afterAll(() => cleanupTmp());

describe.skipIf(!existsSync(CLI))("an index built from nothing", () => {
  it("is as small as VACUUM makes it", async () => {
    const out = makeTmpDir("pi-sessions-gen-");
    spawnSync(process.execPath, [
      join(REPO, "bench", "gen-store.mjs"),
      ...["--out", out, "--sessions", "400", "--projects", "8", "--avg-kb", "4", "--seed", "5"],
    ]);
    const cache = makeTmpDir("pi-sessions-cache-");
    const env = { PATH: process.env.PATH, PI_SESSIONS_CACHE_DIR: cache, PI_SESSIONS_INDEX_BACKGROUND: "0" };
    const r = spawnSync(process.execPath, [CLI, "index", "--session-dir", join(out, "sessions")], {
      env,
      encoding: "utf8",
    });
    expect(r.stderr).toMatch(/^index of 40\d sessions up to date/);
    const dir = join(cache, "index");
    const file = join(
      dir,
      readdirSync(dir).find((n) => n.endsWith(".sqlite"))!,
    );
    const copy = join(makeTmpDir(), "copy.sqlite");
    copyFileSync(file, copy);
    const { DatabaseSync } = await import("node:sqlite");
    const pages = (path: string, vacuum: boolean) => {
      const db = new DatabaseSync(path);
      if (vacuum) db.exec("VACUUM");
      const n = (db.prepare("PRAGMA page_count").get() as { page_count: number }).page_count;
      db.close();
      return n;
    };
    const built = pages(file, false);
    expect(built).toBeGreaterThan(50);
    expect(pages(copy, true)).toBe(built);
  }, 60_000);
});

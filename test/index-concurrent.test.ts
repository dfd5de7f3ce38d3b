import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir, REPO } from "./helpers/tmp-store.js";

/*
 * Two `index` runs and two `list` runs at once, as separate processes on one store and one
 * index: none fails, the index is intact afterwards, and a listing through it is the one
 * without it.
 */

const CLI = join(REPO, "dist", "bundle", "cli.js");

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

afterAll(() => cleanupTmp());

describe.skipIf(!existsSync(CLI))("the index shared by processes running at once", () => {
  it("survives two index builds and two listings racing on it, and stays right", async () => {
    const out = makeTmpDir("pi-sessions-gen-");
    execFileSync(process.execPath, [
      join(REPO, "bench", "gen-store.mjs"),
      ...["--out", out, "--sessions", "120", "--projects", "6", "--avg-kb", "20", "--seed", "3"],
    ]);
    const store = join(out, "sessions");
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
    const args = ["--session-dir", store];
    const runs = await Promise.all([
      runCli(["index", ...args], env),
      runCli(["list", "--all", "--json", "-q", ...args], env),
      runCli(["index", ...args], env),
      runCli(["list", "--all", "--json", "-q", ...args], env),
    ]);
    for (const r of runs)
      expect({ code: r.code, stderr: r.stderr.replace(/^index of .*\n/m, "") }).toEqual({ code: 0, stderr: "" });
    const plain = await runCli(["list", "--all", "--json", "-q", ...args], { ...env, PI_SESSIONS_INDEX: "0" });
    expect(runs[1].stdout).toBe(plain.stdout);
    expect(runs[3].stdout).toBe(plain.stdout);
    const again = await runCli(["list", "--all", "--json", "-q", ...args], env);
    expect(again.stdout).toBe(plain.stdout);
    const file = join(env.PI_SESSIONS_CACHE_DIR, "index", readdirSync(join(env.PI_SESSIONS_CACHE_DIR, "index"))[0]);
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(file, { readOnly: true });
    expect(db.prepare("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    db.close();
    const search = await runCli(["search", "--all", "--json", "-q", "keyboard", ...args], env);
    const searchOff = await runCli(["search", "--all", "--json", "-q", "keyboard", ...args], {
      ...env,
      PI_SESSIONS_INDEX: "0",
    });
    expect(JSON.parse(search.stdout).length).toBeGreaterThan(0);
    expect(search.stdout).toBe(searchOff.stdout);
  }, 120_000);
});

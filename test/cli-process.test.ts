// The built program as a real process: exit codes, stdout and stderr without a TTY.
// `npm test` builds dist/ (tsc, then the bundle) before vitest runs. Both builds run the
// same checks: the bundle is what users run, dist/src what the bundle is made from.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir, PI_STORE, REPO } from "./helpers/tmp-store.js";

const BUILDS = [join("dist", "bundle", "cli.js"), join("dist", "components", "app", "cli.js")];

function run(CLI: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: REPO,
    encoding: "utf8",
    // A clean environment: no store configured unless the test says so.
    env: { PATH: process.env.PATH, HOME: makeTmpDir("pi-sessions-home-"), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
afterAll(cleanupTmp);

describe.each(BUILDS)("%s as a process", (build) => {
  const CLI = join(REPO, build);
  const pi = (args: string[], env?: NodeJS.ProcessEnv) => run(CLI, args, env);

  it("is built (npm test builds first; otherwise run `npm run build`)", () => {
    expect(existsSync(CLI)).toBe(true);
  });

  it("list --all --json: exit 0, one JSON array on stdout, nothing on stderr", () => {
    const r = pi(["list", "--all", "--json", "--session-dir", PI_STORE]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows).toHaveLength(30);
    expect(rows[0]).toHaveProperty("messageCount");
  });

  it("the store from $PI_CODING_AGENT_DIR/sessions", () => {
    const r = pi(["list", "--all", "--json"], { PI_CODING_AGENT_DIR: join(PI_STORE, "..") });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(30);
  });

  it("a usage error: exit 2, one line on stderr", () => {
    const r = pi(["list", "--bogus"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^pi-sessions: .*--bogus.*\n$/);
  });

  it("an unknown command: exit 2", () => {
    const r = pi(["frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("pi-sessions: unknown command 'frobnicate' (see pi-sessions --help)\n");
  });

  it("a missing store: exit 1, one line on stderr naming the path and how to point elsewhere", () => {
    const missing = join(makeTmpDir(), "no-such-store");
    const r = pi(["list", "--session-dir", missing]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")).toEqual([expect.stringContaining(missing), ""]);
    expect(r.stderr).toMatch(/--session-dir/);
    expect(existsSync(missing)).toBe(false);
  });

  it("--help for every command: exit 0, usage on stdout", () => {
    for (const cmd of ["list", "show", "rename", "label"]) {
      const r = pi([cmd, "--help"]);
      expect(r.code, cmd).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: pi-sessions ${cmd} `));
    }
    expect(pi(["--help"]).stdout).toContain("pi-sessions list");
    expect(pi(["--version"]).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

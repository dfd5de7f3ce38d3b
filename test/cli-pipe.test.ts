import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { user, assistant, writeSession } from "./helpers/session-file.js";

/*
 * Issue 20, "a CLI you can script": a closed pipe ends the program quietly with status 0
 * (as `ls | head` does), and output to a pipe is not cut to a terminal's width.
 */
const CLI = join(import.meta.dirname, "..", "dist", "bundle", "cli.js");
const big = "lorem ipsum dolor sit amet ".repeat(40_000); // ~1 MB of one message: more than a pipe holds
const file = writeSession([user("u1", null, big), assistant("a1", "u1", big, { usage: { input: 346884995, output: 1, cacheRead: 0, cacheWrite: 0, cost: { total: 1 } } })]);
afterAll(() => file.cleanup());

function piped(cmd: string) {
  const r = spawnSync("bash", ["--norc", "--noprofile", "-c", `set -o pipefail; "${process.execPath}" "${CLI}" ${cmd} | head -c 100 >/dev/null; echo "status=\${PIPESTATUS[0]}" >&2`], {
    encoding: "utf8",
    env: { PATH: process.env.PATH, PI_CODING_AGENT_SESSION_DIR: file.dir },
  });
  return { stderr: r.stderr };
}

describe("the CLI in a pipe", () => {
  for (const cmd of [`export "${"$PI_CODING_AGENT_SESSION_DIR"}"/*.jsonl`, `show "${"$PI_CODING_AGENT_SESSION_DIR"}"/*.jsonl --json`, "list --all --json"]) {
    it(`${cmd.split(" ")[0]} | head ends quietly with status 0`, () => {
      const { stderr } = piped(cmd);
      expect(stderr).toMatch(/status=0\n$/);
      expect(stderr).not.toMatch(/EPIPE|Error|at /);
    });
  }
  it("stats to a pipe keeps whole lines (no cut at 80 columns)", () => {
    const r = spawnSync(process.execPath, [CLI, "stats", "--all"], { encoding: "utf8", env: { PATH: process.env.PATH, PI_CODING_AGENT_SESSION_DIR: file.dir, COLUMNS: "40" } });
    expect(r.status).toBe(0);
    expect(r.stdout.split("\n")[0]).toMatch(/^Usage by day · all folders · 1 of 1 sessions with usage$/);
  });
});

import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { HEADER, user, assistant, writeSession } from "./helpers/session-file.js";
import { settle } from "./helpers/tmp-store.js";

/*
 * Issue 20, "a CLI you can script": a closed pipe ends the program quietly with status 0
 * (as `ls | head` does), and output to a pipe is not cut to a terminal's width.
 */
const CLI = join(import.meta.dirname, "..", "dist", "bundle", "cli.js");
const big = "lorem ipsum dolor sit amet ".repeat(40_000); // ~1 MB of one message: more than a pipe holds
const file = writeSession([
  user("u1", null, big),
  assistant("a1", "u1", big, {
    usage: { input: 346884995, output: 1, cacheRead: 0, cacheWrite: 0, cost: { total: 1 } },
  }),
]);
afterAll(() => file.cleanup());

function piped(cmd: string) {
  const r = spawnSync(
    "bash",
    [
      "--norc",
      "--noprofile",
      "-c",
      `set -o pipefail; "${process.execPath}" "${CLI}" ${cmd} | head -c 100 >/dev/null; echo "status=\${PIPESTATUS[0]}" >&2`,
    ],
    {
      encoding: "utf8",
      env: { PATH: process.env.PATH, PI_CODING_AGENT_SESSION_DIR: file.dir },
    },
  );
  return { stderr: r.stderr };
}

describe("the CLI in a pipe", () => {
  for (const cmd of [
    `export "${"$PI_CODING_AGENT_SESSION_DIR"}"/*.jsonl`,
    `show "${"$PI_CODING_AGENT_SESSION_DIR"}"/*.jsonl --json`,
    "list --all --json",
  ]) {
    it(`${cmd.split(" ")[0]} | head ends quietly with status 0`, () => {
      const { stderr } = piped(cmd);
      expect(stderr).toMatch(/status=0\n$/);
      expect(stderr).not.toMatch(/EPIPE|Error|at /);
    });
  }
  it("stats to a pipe keeps whole lines (no cut at 80 columns)", () => {
    const r = spawnSync(process.execPath, [CLI, "stats", "--all"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH, PI_CODING_AGENT_SESSION_DIR: file.dir },
    });
    expect(r.status).toBe(0);
    expect(r.stdout.split("\n")[0]).toMatch(/^Usage by day · all folders · 1 of 1 sessions with usage$/);
    // The day's row with its bar is wider than the 80 columns it used to be cut to.
    expect(Math.max(...r.stdout.split("\n").map((l) => [...l].length))).toBeGreaterThan(80);
  });
});

describe("flags scripts use (issue 20)", () => {
  const env = () => ({ PATH: process.env.PATH, PI_CODING_AGENT_SESSION_DIR: file.dir });
  const cli = (args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: env(), maxBuffer: 1 << 28 });
  it("-a is --all", () => {
    expect(cli(["list", "-a", "--json"]).stdout).toBe(cli(["list", "--all", "--json"]).stdout);
  });
  it("--quiet says nothing on stderr", () => {
    const broken = `${file.dir}/2026-05-03T00-00-00-000Z_broken.jsonl`;
    writeFileSync(broken, "not json\n");
    try {
      expect(cli(["list", "-a"]).stderr).toContain("skipped");
      expect(cli(["list", "-a", "--quiet"]).stderr).toBe("");
    } finally {
      rmSync(broken);
    }
  });
  it("export -o replaces an existing file only with --force, and never a session file", () => {
    const out = `${file.dir}/out.md`;
    writeFileSync(out, "old");
    expect(cli(["export", file.path, "-o", out]).stderr).toMatch(
      /already exists; not overwriting it \(--force replaces it\)/,
    );
    expect(readFileSync(out, "utf8")).toBe("old");
    const r = cli(["export", file.path, "-o", out, "--force", "-q"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    expect(readFileSync(out, "utf8")).toMatch(/^# /);
    const session = readFileSync(file.path);
    expect(cli(["export", file.path, "-o", file.path, "--force"]).stderr).toMatch(
      /is a pi session; export never writes over one/,
    );
    expect(readFileSync(file.path).equals(session)).toBe(true);
  });
  it("export -o - writes to stdout, as without -o, and makes no file named '-' (--force or not)", () => {
    const small = writeSession([user("u1", null, "hello"), assistant("a1", "u1", "hi there")]);
    const work = mkdtempSync(join(tmpdir(), "pi-sessions-dash-"));
    try {
      const run = (args: string[]) =>
        spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: env(), cwd: work });
      const plain = run(["export", small.path, "--format", "html"]);
      expect(plain.status).toBe(0);
      expect(plain.stdout).toMatch(/^<!doctype html>/i);
      for (const extra of [[], ["--force"]]) {
        const r = run(["export", small.path, "--format", "html", "-o", "-", ...extra]);
        expect(r.status).toBe(0);
        expect(r.stdout).toBe(plain.stdout);
        expect(r.stderr).toBe("");
        expect(readdirSync(work)).toEqual([]);
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
      small.cleanup();
    }
  });
});

describe("nothing is cut in a pipe (QA pass)", () => {
  const cwd = "/home/dev/src/github.com/acme/pi-mono-11/packages/coding-agent";
  const title = "refactor the session store so that " + "every long title survives a pipe ".repeat(10).trim();
  const store = mkdtempSync(join(tmpdir(), "pi-sessions-pipe-"));
  const header = (id: string) => ({ ...HEADER, id, cwd });
  for (const id of ["0196e0a2-0000-7000-8000-00000000000a", "0196e0a2-0000-7000-8000-00000000000b"]) {
    const s = writeSession([user("u1", null, title), assistant("a1", "u1", "done")], header(id));
    renameSync(s.path, join(store, `2026-05-02T09-14-03-221Z_${id}.jsonl`));
    s.cleanup();
  }
  afterAll(() => rmSync(store, { recursive: true, force: true }));
  const cli = (args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args, "--session-dir", store, "-q"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH, PI_SESSIONS_INDEX: "0" },
    });

  it("list: every row has the whole cwd and the whole title", () => {
    const r = cli(["list", "-a"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    const rows = r.stdout.trimEnd().split("\n").slice(1);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toContain(`  ${cwd}  `);
      expect(row.endsWith(`  ${title}`)).toBe(true);
    }
  });

  it("search: the whole title and cwd on each hit's line", () => {
    const r = cli(["search", "-a", "survives"]);
    expect(r.status).toBe(0);
    const heads = r.stdout.split("\n").filter((l) => l && !l.startsWith("      "));
    expect(heads).toHaveLength(2);
    for (const h of heads) expect(h.endsWith(`${title}  (${cwd})`)).toBe(true);
  });
});

describe("stderr a closed pipe (QA pass)", () => {
  // Three sessions with the word: `search -n 1` prints one and says "2 more" on stderr.
  const store = mkdtempSync(join(tmpdir(), "pi-sessions-stderr-"));
  for (const n of [1, 2, 3]) {
    const id = `0196e0a2-0000-7000-8000-00000000000${n}`;
    const s = writeSession([user("u1", null, `platypus number ${n}`), assistant("a1", "u1", "ok")], { ...HEADER, id });
    renameSync(s.path, join(store, `2026-05-02T09-14-0${n}-221Z_${id}.jsonl`));
    s.cleanup();
  }
  afterAll(() => rmSync(store, { recursive: true, force: true }));

  /** The command's status with its stderr a pipe whose reader is gone before it starts (stdout to /dev/null). */
  function stderrClosed(args: string) {
    const r = spawnSync(
      "bash",
      [
        "--norc",
        "--noprofile",
        "-c",
        `{ sleep 0.3; "${process.execPath}" "${CLI}" ${args} --session-dir "${store}" >/dev/null; } 2>&1 | true; echo "status=\${PIPESTATUS[0]}"`,
      ],
      { encoding: "utf8", env: { PATH: process.env.PATH, PI_SESSIONS_INDEX: "0" } },
    );
    return r.stdout;
  }

  it("the notes that have nowhere to go do not fail the command: search ends with its own status", () => {
    expect(stderrClosed("search -a -n 1 platypus")).toBe("status=0\n");
    // Nothing matches: 1, as grep (its "no match" note has nowhere to go either).
    expect(stderrClosed("search -a wombat")).toBe("status=1\n");
  });
});

describe("a kept answer written a megabyte at a time through one buffer, into a pipe its reader is behind on", () => {
  // Over 2 MiB of --json and of text: stdout still holds one chunk when the next is made.
  const dir = mkdtempSync(join(tmpdir(), "pi-sessions-pipe-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const store = join(dir, "agent");
  const env = { PATH: process.env.PATH, PI_SESSIONS_CACHE_DIR: join(dir, "cache") };
  const gen = join(import.meta.dirname, "..", "bench", "gen-store.mjs");

  it("writes the bytes of the files' own answer (--json and text), the third run served kept", async () => {
    const made = spawnSync(process.execPath, [
      gen,
      "--out",
      store,
      "--sessions",
      "9500",
      "--projects",
      "20",
      "--seed",
      "3",
      "--avg-kb",
      "1",
    ]);
    expect(made.status).toBe(0);
    settle(store);
    for (const args of [
      ["list", "--all", "--json"],
      ["list", "--all"],
    ]) {
      const cmd = [CLI, ...args, "-q", "--session-dir", join(store, "sessions")];
      const first = spawnSync(process.execPath, cmd, { env, maxBuffer: 1 << 26 });
      expect(first.status).toBe(0);
      expect(first.stdout.length).toBeGreaterThan(args.includes("--json") ? 2 << 20 : 1 << 20);
      expect(spawnSync(process.execPath, cmd, { env, maxBuffer: 1 << 26 }).status).toBe(0);
      // The third, served kept, into a pipe nobody reads for a while.
      const child = spawn(process.execPath, cmd, { env, stdio: ["ignore", "pipe", "pipe"] });
      child.stdout.pause();
      await new Promise((r) => setTimeout(r, 300));
      const out: Buffer[] = [];
      child.stdout.on("data", (b: Buffer) => out.push(b));
      child.stdout.resume();
      const status = await new Promise((r) => child.on("close", r));
      expect({ args, status }).toEqual({ args, status: 0 });
      expect({ args, same: Buffer.concat(out).equals(first.stdout) }).toEqual({ args, same: true });
    }
  }, 180_000);
});

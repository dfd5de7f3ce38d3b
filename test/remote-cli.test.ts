import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliResult } from "./helpers/cli.js";
import { assistant, user } from "./helpers/session-file.js";
import { seedStore, startSshd, type RemoteHost, type Sshd } from "./helpers/sshd.js";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE } from "./helpers/tmp-store.js";

/*
 * The command line against two real hosts: an sshd on 127.0.0.1 (test/helpers/sshd.ts) with
 * two remote environments, each with its own store and this checkout's pi-sessions, and a
 * third whose "pi-sessions" misbehaves in the ways a host can.
 */

/** A session file in `store`'s project folder for `cwd`, named `file`; its path. */
function writeSessionIn(store: string, cwd: string, file: string, id: string, words: string): string {
  const dir = join(store, `--${cwd.replace(/^\//, "").replace(/\//g, "-")}--`);
  mkdirSync(dir, { recursive: true });
  const header = { type: "session", version: 3, id, timestamp: "2026-05-02T09:14:03.221Z", cwd };
  const lines = [header, user("u1", null, `${words} first`), assistant("a1", "u1", `${words} answer`)];
  const path = join(dir, file);
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return path;
}

const ALPHA_ID = "0197aaaa-0000-7000-8000-00000000a1f0";
const BETA_ID = "0197bbbb-0000-7000-8000-00000000be70";
/** A path that a careless remote command line would run: quotes, $() and a newline. */
const HOSTILE_FILE = "2026-05-02T09-14-03-221Z_it's $(touch pwned)\n`x`.jsonl";

let sshd: Sshd | { skip: string };
let alpha: RemoteHost;
let beta: RemoteHost;
let evil: RemoteHost;
let localStore: string;
let env: NodeJS.ProcessEnv;
let alphaPath: string;
let betaPath: string;

/** The hostile host's "pi-sessions": what it does is chosen by the file `mode` in its home. */
const EVIL = `#!/bin/sh
mode=$(cat "$HOME/mode" 2>/dev/null)
case "$mode" in
  escapes) printf '\\033]0;owned\\007\\033[2J\\033[31mred junk\\n'; sleep 8 ;;
  garbage) i=0; while [ $i -lt 80 ]; do echo "this is not json $i"; i=$((i+1)); done ;;
  newer) printf '%s\\n' '{"pi-sessions":"serve","protocol":99,"version":"99.0.0","capabilities":["list"]}'; sleep 8 ;;
  hang) sleep 8 ;;
  huge) printf '%s\\n' '{"pi-sessions":"serve","protocol":1,"version":"1","capabilities":["list","search","stats","show"]}'; head -c 1100000000 /dev/zero | tr '\\000' a ;;
  old) echo "pi-sessions: unknown command 'serve' (see pi-sessions --help)" >&2; exit 2 ;;
  *) echo "sh: 1: pi-sessions: not found" >&2; exit 127 ;;
esac
`;

beforeAll(async () => {
  sshd = await startSshd(["alpha", "beta", "evil"], (h) => {
    if (h.name === "alpha") {
      seedStore(h, PI_STORE);
      alphaPath = writeSessionIn(h.store, "/home/dev/src/app", "alpha-only.jsonl", ALPHA_ID, "alphaonly");
    } else if (h.name === "beta") {
      betaPath = writeSessionIn(h.store, "/srv/beta", HOSTILE_FILE, BETA_ID, "betaonly");
    } else {
      writeFileSync(join(h.bin, "pi-sessions"), EVIL);
      chmodSync(join(h.bin, "pi-sessions"), 0o755);
    }
  });
  if ("skip" in sshd) return;
  [alpha, beta, evil] = sshd.hosts;
  localStore = copyStore(PI_STORE);
  writeSessionIn(
    localStore,
    "/home/dev/src/app",
    "local-only.jsonl",
    "0197cccc-0000-7000-8000-00000000c0c0",
    "localonly",
  );
  const xdg = makeTmpDir();
  env = {
    ...sshd.env,
    PATH: process.env.PATH,
    PI_SESSIONS_CACHE_DIR: join(xdg, "cache"),
    XDG_DATA_HOME: join(xdg, "data"),
    XDG_STATE_HOME: join(xdg, "state"),
    HOME: xdg,
  };
}, 60_000);

afterAll(async () => {
  if ("stop" in sshd) await sshd.stop();
  cleanupTmp();
});

const cli = (argv: string[], extra: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
  runCli(argv, { env: { ...env, ...extra }, cwd: "/home" });

/** Skips (saying why) where no sshd can run. */
function needsSshd(): boolean {
  if ("skip" in sshd) {
    console.warn(`remote tests skipped: ${sshd.skip}`);
    return false;
  }
  return true;
}

describe("list and search across this machine and two hosts", () => {
  it("list: local rows first, then each host's, labelled; --json rows carry the host", async () => {
    if (!needsSshd()) return;
    const r = await cli(["list", "-a", "--session-dir", localStore, "--host", "alpha", "--host", "beta", "--json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as { path: string; host?: string; id: string }[];
    const hosts = rows.map((x) => x.host ?? "local");
    // Local first, then alpha's, then beta's: each machine's rows together, in that order.
    expect([...new Set(hosts)]).toEqual(["local", "alpha", "beta"]);
    expect(rows.filter((x) => x.host === undefined).every((x) => x.path.startsWith(localStore))).toBe(true);
    expect(rows.find((x) => x.id === ALPHA_ID)).toMatchObject({ host: "alpha", path: alphaPath });
    expect(rows.find((x) => x.id === BETA_ID)).toMatchObject({ host: "beta", path: betaPath });
    const text = await cli(["list", "-a", "--session-dir", localStore, "--host", "alpha", "--host=beta"]);
    const lines = text.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^HOST\s+AGE\s+MSGS\s+SIZE\s+ID\s+CWD\s+TITLE$/);
    expect(lines.find((l) => l.includes("alphaonly"))).toMatch(/^alpha /);
    // The hostile file name is text, one line, sanitized.
    const b = lines.find((l) => l.includes("betaonly"))!;
    expect(b).toMatch(/^beta /);
    expect(lines.filter((l) => l.startsWith("local ")).length).toBeGreaterThan(0);
  });

  it("search: each machine's hits, the host's marked as its", async () => {
    if (!needsSshd()) return;
    const r = await cli([
      "search",
      "-a",
      "--json",
      "--session-dir",
      localStore,
      "--host",
      "alpha",
      "--host",
      "beta",
      "only",
    ]);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as { id: string; host?: string }[];
    expect(rows.map((x) => [x.id, x.host ?? null])).toEqual(
      expect.arrayContaining([
        ["0197cccc-0000-7000-8000-00000000c0c0", null],
        [ALPHA_ID, "alpha"],
        [BETA_ID, "beta"],
      ]),
    );
    const text = await cli([
      "search",
      "-a",
      "--session-dir",
      localStore,
      "--host",
      "alpha",
      "--host",
      "beta",
      "betaonly",
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/── beta ──\n.*betaonly/s);
    expect(text.stdout).not.toMatch(/── alpha ──/);
    const none = await cli(["search", "-a", "--session-dir", localStore, "--host", "alpha", "zzqqxx"]);
    expect(none.code).toBe(1);
  });

  it("stats: this machine's, then each host's", async () => {
    if (!needsSshd()) return;
    const r = await cli(["stats", "-a", "--json", "--session-dir", localStore, "--host", "alpha"]);
    expect(r.code).toBe(0);
    const reports = JSON.parse(r.stdout) as { host: string | null; sessions: number }[];
    expect(reports.map((x) => x.host)).toEqual([null, "alpha"]);
    expect(reports[1].sessions).toBe(reports[0].sessions);
  });
});

describe("a session on a host", () => {
  it("show and export HOST:PATH, or an id with --host", async () => {
    if (!needsSshd()) return;
    const show = await cli(["show", `alpha:${alphaPath}`]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain("alphaonly first");
    const byId = await cli(["show", "--json", "--host", "alpha", ALPHA_ID.slice(0, 13)]);
    expect(JSON.parse(byId.stdout)).toMatchObject({ host: "alpha", path: alphaPath });
    const md = await cli(["export", `beta:${betaPath}`]);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("betaonly answer");
    const out = join(makeTmpDir(), "b.html");
    const html = await cli(["export", `beta:${betaPath}`, "-o", out]);
    expect(html.code).toBe(0);
    expect(readFileSync(out, "utf8")).toMatch(/^<!doctype html>/i);
    // Nothing ran on the host from the path's $(…).
    expect(existsSync(join(beta.home, "pwned"))).toBe(false);
    const again = await cli(["export", `beta:${betaPath}`, "-o", out]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
  });

  it("rename, label, delete and restore land in the host's files and trash", async () => {
    if (!needsSshd()) return;
    const rn = await cli(["rename", `alpha:${alphaPath}`, "named over ssh"]);
    expect(rn.code).toBe(0);
    expect(rn.stdout).toContain("named");
    expect(readFileSync(alphaPath, "utf8")).toContain('"name":"named over ssh"');
    const lb = await cli(["label", "--host", "alpha", ALPHA_ID, "a1", "checkpoint"]);
    expect(lb.code).toBe(0);
    expect(readFileSync(alphaPath, "utf8")).toMatch(/"type":"label".*"label":"checkpoint"/);
    const del = await cli(["delete", "--yes", `alpha:${alphaPath}`]);
    expect(del.code).toBe(0);
    expect(del.stderr).toContain("undo with: pi-sessions restore --last --host alpha");
    expect(existsSync(alphaPath)).toBe(false);
    const trashed = readdirSync(join(alpha.home, ".local", "share", "Trash", "files"));
    expect(trashed).toContain("alpha-only.jsonl");
    const rs = await cli(["restore", "--last", "--host", "alpha"]);
    expect(rs.code).toBe(0);
    expect(existsSync(alphaPath)).toBe(true);
    expect(readFileSync(alphaPath, "utf8")).toContain("checkpoint");
    // Nothing of it happened here.
    expect(existsSync(join(env.XDG_DATA_HOME!, "Trash"))).toBe(false);
  });

  it("a write refused there is refused here, with its exit status", async () => {
    if (!needsSshd()) return;
    const r = await cli(["rename", "--host", "alpha", "no-such-session", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^pi-sessions: alpha: no session matches 'no-such-session'/);
    const d = await cli(["delete", `alpha:${alphaPath}`]);
    expect(d.code).toBe(1);
    expect(d.stderr).toMatch(/refusing to delete without a terminal/);
    expect(existsSync(alphaPath)).toBe(true);
  });
});

describe("hosts that cannot be trusted or reached", () => {
  it("a host alias that is an ssh option is refused before anything runs", async () => {
    if (!needsSshd()) return;
    const marker = join(makeTmpDir(), "ran");
    const r = await cli(["list", `--host=-oProxyCommand=touch ${marker}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^pi-sessions: '-oProxyCommand=touch .*' is not a host name: it starts with '-'/);
    const spaced = await cli(["list", "--host", `-oProxyCommand=touch ${marker}`]);
    expect(spaced.code).toBe(2);
    const s = await cli(["show", `-oProxyCommand=touch ${marker}:/x.jsonl`]);
    expect(s.code).not.toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it("list takes list's own options with --host; --skipped (this machine's skipped files) takes no host", async () => {
    if (!needsSshd()) return;
    const r = await cli(["list", "--skipped", "--session-dir", localStore, "--host", "alpha"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("pi-sessions: list --skipped is this machine's skipped files: it takes no --host\n");
  });

  const hostile = async (mode: string, timeout = "3") => {
    writeFileSync(join(evil.home, "mode"), mode);
    const started = Date.now();
    const r = await cli(["list", "-a", "--session-dir", localStore, "--host", "evil"], {
      PI_SESSIONS_REMOTE_TIMEOUT: timeout,
    });
    return { ...r, ms: Date.now() - started };
  };

  it("escape sequences, garbage, a newer protocol, a hang, a 1 GB line: one clear line each, local rows still listed, no hang", async () => {
    if (!needsSshd()) return;
    const cases: [string, RegExp][] = [
      ["escapes", /^pi-sessions: evil: answered something other than pi-sessions \("red junk"\)\n$/],
      ["garbage", /^pi-sessions: evil: answered something other than pi-sessions \("this is not json 0"\)\n$/],
      [
        "newer",
        /^pi-sessions: evil: its pi-sessions \(99\.0\.0\) speaks protocol 99, newer than this one's 1: update pi-sessions here\n$/,
      ],
      ["hang", /^pi-sessions: evil: no answer in 3 s\n$/],
      ["huge", /^pi-sessions: evil: sent a line over 64 MiB; stopped\n$/],
      [
        "old",
        /^pi-sessions: evil: its pi-sessions is too old to serve \(update it: install it there with `npm install -g pi-sessions`/,
      ],
      [
        "missing",
        /^pi-sessions: evil: pi-sessions is not installed there \(install it there with `npm install -g pi-sessions`/,
      ],
    ];
    for (const [mode, said] of cases) {
      const r = await hostile(mode);
      expect(r.stderr, mode).toMatch(said);
      expect(r.stderr, mode).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
      expect(r.code, mode).toBe(1);
      // This machine's rows are there all the same.
      expect(r.stdout, mode).toContain("localonly");
      expect(r.ms, mode).toBeLessThan(15_000);
    }
  }, 120_000);

  it("a host that is down: said, and this machine's rows listed", async () => {
    if (!needsSshd()) return;
    const r = await cli(["list", "-a", "--session-dir", localStore, "--host", "nosuchhost"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^pi-sessions: nosuchhost: unreachable/);
    expect(r.stdout).toContain("localonly");
  });
});

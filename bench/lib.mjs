// Shared helpers for the benchmarks: whole-process measurement, the store cache, stats.
// Plain ESM run by node against dist/ (no build step of its own).
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  openSync,
  closeSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  mkdtempSync,
} from "node:fs";
import { createHash } from "node:crypto";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const ROOT = dirname(BENCH_DIR);
export const CACHE = join(ROOT, ".bench");
// The program users run: the bundle (scripts/bundle.mjs), not the unbundled dist/src/cli.js.
export const CLI = join(ROOT, "dist", "bundle", "cli.js");
/** The launcher's V8 code cache (src/launcher) during benchmarks: here, not in the home folder. */
export const CODE_CACHE_DIR = join(CACHE, "code-cache");

/** Paths shown in output and results.md are relative to the repo, never absolute. */
export const rel = (p) => relative(ROOT, p) || ".";

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

// ---------------------------------------------------------------------------------------
// Stores: generated once by bench/gen-store.mjs into .bench/stores/<name>/, reused while
// the marker (generator args + generator hash) matches.
// ---------------------------------------------------------------------------------------

export const STORES = {
  /** Issue #2 and #3: 2,000 sessions, ~0.8 GB. */
  s2000: ["--sessions", "2000", "--projects", "40"],
  /** Issue #3: 10,000 small sessions for the key-latency run. */
  "s10k-small": ["--sessions", "10000", "--projects", "40", "--avg-kb", "2"],
  /** Issue 14: 2,000 sessions whose project folders exist (under .bench/projects), for "this folder" launches beside pi --resume. */
  "s2000-here": ["--sessions", "2000", "--projects", "40", "--cwd-root", join(CACHE, "projects")],
  /** Issue 36: 2,000 small sessions, a host's store for the remote benchmark (each host and here). */
  "s2000-small": ["--sessions", "2000", "--projects", "40", "--avg-kb", "4"],
  /** Issue 23: 10,000 sessions, ~4 GB, for the persistent index. */
  s10k: ["--sessions", "10000", "--projects", "100"],
  /** Issue #4: one session of 50,000 entries. */
  huge50k: ["--sessions", "0", "--huge-entries", "50000"],
};

function generatorHash() {
  return createHash("sha256")
    .update(readFileSync(join(BENCH_DIR, "gen-store.mjs")))
    .digest("hex")
    .slice(0, 16);
}

/** Returns `{ agentDir, sessionsDir, generated }`; generates the store if it isn't cached. */
export function ensureStore(name, log = console.error) {
  const args = STORES[name];
  if (!args) throw new Error(`unknown store ${name}`);
  const agentDir = join(CACHE, "stores", name);
  const marker = join(agentDir, ".generated.json");
  const want = JSON.stringify({ args, generator: generatorHash() });
  let have = null;
  try {
    have = readFileSync(marker, "utf8");
  } catch {}
  if (have === want) return { agentDir, sessionsDir: join(agentDir, "sessions"), generated: false };
  log(`generating store ${name} (${args.join(" ")}) into ${rel(agentDir)} — this takes a while, once…`);
  rmSync(agentDir, { recursive: true, force: true });
  mkdirSync(agentDir, { recursive: true });
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(BENCH_DIR, "gen-store.mjs"), "--out", agentDir, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`gen-store failed for ${name} (exit ${r.status})`);
  writeFileSync(marker, want);
  log(`  done in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${r.stdout.toString().trim()}`);
  return { agentDir, sessionsDir: join(agentDir, "sessions"), generated: true };
}

// ---------------------------------------------------------------------------------------
// Whole-process measurement: wall time from spawn to exit, and peak RSS.
// Peak RSS comes from GNU time (`/usr/bin/time -f %M`, KB) when it exists; otherwise the
// child is started with --import bench/rss-hook.mjs, which writes
// process.resourceUsage().maxRSS (KB) to a file at exit.
// ---------------------------------------------------------------------------------------

let gnuTime;
function hasGnuTime() {
  if (gnuTime === undefined) {
    const r = spawnSync("/usr/bin/time", ["-f", "%M", "true"], { encoding: "utf8" });
    gnuTime = r.status === 0 && /^\d+\s*$/m.test(r.stderr ?? "");
  }
  return gnuTime;
}
export const rssMethod = () => (hasGnuTime() ? "`/usr/bin/time -f %M`" : "`process.resourceUsage().maxRSS` at exit");

/**
 * Runs `node ...nodeArgs` as a whole separate process.
 * stdout: "null" (discarded to /dev/null) or "capture".
 * Returns { wallMs, rssMB, cpuMs (user + system), code, stdout, stderr }.
 */
export function measureNode(nodeArgs, { env = {}, stdout = "null", cwd = ROOT } = {}) {
  const tmp = mkdtempSync(join(tmpdir(), "pi-sessions-bench-"));
  const rssFile = join(tmp, "rss");
  let cmd, args;
  const childEnv = { ...process.env, ...env };
  if (hasGnuTime()) {
    cmd = "/usr/bin/time";
    args = ["-f", "%M %U %S", "-o", rssFile, process.execPath, ...nodeArgs];
  } else {
    cmd = process.execPath;
    args = ["--import", join(BENCH_DIR, "rss-hook.mjs"), ...nodeArgs];
    childEnv.PI_SESSIONS_BENCH_RSS_FILE = rssFile;
  }
  const outFd = stdout === "null" ? openSync("/dev/null", "w") : "pipe";
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { cwd, env: childEnv, stdio: ["ignore", outFd, "pipe"] });
    let out = "";
    let err = "";
    child.stdout?.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
      if (typeof outFd === "number") closeSync(outFd);
      // "<maxRSS KB> <user s> <sys s>" (GNU time writes a note line first if the child failed).
      let rssKB = NaN;
      let cpuMs = NaN;
      try {
        const [kb, user, sys] = readFileSync(rssFile, "utf8").trim().split("\n").pop().split(" ").map(Number);
        rssKB = kb;
        cpuMs = (user + sys) * 1000;
      } catch {}
      rmSync(tmp, { recursive: true, force: true });
      resolve({ wallMs, rssMB: rssKB / 1024, cpuMs, code, stdout: out, stderr: err });
    });
  });
}

/**
 * Runs a command (not node) with stdin from a file and stdout to /dev/null; its wall time
 * from spawn to exit. For the floor the issue names: \`cat\` over every file.
 */
export function measureCommand(cmd, args, { stdinFile } = {}) {
  const inFd = stdinFile ? openSync(stdinFile, "r") : "ignore";
  const outFd = openSync("/dev/null", "w");
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { stdio: [inFd, outFd, "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
      if (typeof inFd === "number") closeSync(inFd);
      closeSync(outFd);
      resolve({ wallMs, code, stderr: err });
    });
  });
}

/** Checks that a child run succeeded; throws with its stderr otherwise. */
export function ok(r, what) {
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}: ${r.stderr.slice(-2000)}`);
  return r;
}

export const fmtMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
export const fmtMB = (mb) => (Number.isFinite(mb) ? `${mb.toFixed(0)} MB` : "n/a");

/** Exists so callers can check optional devDependencies without importing them. */
export function hasModule(spec) {
  return existsSync(join(ROOT, "node_modules", ...spec.split("/")));
}

/** The biggest session file of a store (the 50,000-entry one in the huge50k store). */
export function largestSession(sessionsDir) {
  let best = null;
  for (const d of readdirSync(sessionsDir)) {
    const dir = join(sessionsDir, d);
    if (!statSync(dir).isDirectory()) continue;
    for (const f of readdirSync(dir)) {
      if (!f.endsWith(".jsonl")) continue;
      const p = join(dir, f);
      const size = statSync(p).size;
      if (!best || size > best.size) best = { path: p, size };
    }
  }
  return best;
}

/** Every session file of a store (in project folders, or directly in it). */
export function storeFiles(dir) {
  const files = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, d.name);
    if (d.isDirectory()) for (const f of readdirSync(p)) f.endsWith(".jsonl") && files.push(join(p, f));
    else if (d.name.endsWith(".jsonl")) files.push(p);
  }
  return files;
}

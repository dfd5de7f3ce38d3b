#!/usr/bin/env node
// Issue #3 benchmark: the browser in a real pseudo-terminal (node-pty + @xterm/headless).
//
//   node bench/tui.mjs [--store DIR] [--store10k DIR] [--runs N] [--keys N] [--interval MS] [--no-pi]
//
//   1. launch → first frame showing rows: spawn `node dist/bundle/cli.js --all --session-dir <store>`
//      in a 120×40 pty; the clock starts just before spawn and stops when the headless
//      terminal's screen first shows a list row (the selected row's "❯ " marker).
//      Compared with pi's own SessionManager.listAll() (spawn → exit of a child process).
//   2. key → frame latency while holding ↓ through a 10,000-row list: once the scan is
//      done, write "\x1b[B" to the pty at key-repeat pace and time each key from the write
//      until the screen changes (the xterm buffer is checked after every chunk of output
//      is parsed). Then End, and ↑ held from the bottom the same way.
//
// DIR is an agent dir (holding sessions/) or a sessions dir. Defaults: .bench/stores/s2000
// and .bench/stores/s10k-small, generated with bench/gen-store.mjs when missing.
// Exports { name, description, stores, run({ runs, log }) → { rows, notes } } for bench/run.mjs,
// and measureFirstRows / measureKeyLatency / piListAll for one-off runs.
// Knobs for investigations: TUI_BENCH_NODE_ARGS (extra node flags for the browser, e.g.
// "--cpu-prof --cpu-prof-dir=DIR") and TUI_BENCH_CLI (another build of the CLI, e.g. the unbundled dist/src/cli.js).
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  BENCH_DIR,
  CLI,
  CODE_CACHE_DIR,
  ROOT,
  STORES,
  ensureStore,
  fmtMs,
  fmtMB,
  measureNode,
  median,
  percentile,
  rel,
} from "./lib.mjs";
import { launchInPty } from "./pty.mjs";

export const name = "tui-list";
export const description = "issue #3: browser first frame + ↓ key latency in a pty";
export const stores = ["s2000"];

const COLS = 120;
const ROWS = 40;
const KEY_DOWN = "\x1b[B";
const KEY_UP = "\x1b[A";
const KEY_END = "\x1b[F";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function storeDirs(dir) {
  const abs = resolve(dir);
  return existsSync(join(abs, "sessions"))
    ? { agentDir: abs, sessionsDir: join(abs, "sessions") }
    : { agentDir: resolve(abs, ".."), sessionsDir: abs };
}

/** The browser in a pty mirrored into a headless xterm (bench/pty.mjs), screen as lines. */
function launch(sessionsDir, extraEnv = {}) {
  // TUI_BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles the browser itself.
  const nodeArgs = (process.env.TUI_BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  // TUI_BENCH_CLI=path runs another build of the CLI (e.g. the unbundled dist/src/cli.js) instead.
  const cli = process.env.TUI_BENCH_CLI ?? CLI;
  // Without CI (ink draws only a final frame in CI) and NO_COLOR: the terminal a user has.
  const s = launchInPty(process.execPath, [...nodeArgs, cli, "--all", "--session-dir", sessionsDir], {
    cols: COLS,
    rows: ROWS,
    cwd: ROOT,
    env: { CI: undefined, NO_COLOR: undefined, PI_SESSIONS_CACHE_DIR: CODE_CACHE_DIR, ...extraEnv },
  });
  const lines = () => s.screen().split("\n");
  /** Resolves with the time (performance.now) the screen first satisfies `check`. */
  const when = async (check, timeoutMs = 60_000) =>
    s.t0 + (await s.waitFor((screen) => check(screen.split("\n")), { timeoutMs }));
  return { t0: s.t0, p: s.proc, bytes: () => s.bytes, lines, when, peakRssMB: s.peakRssMB, quit: s.quit };
}

// The selected row: "❯ " inside the list's frame ("│❯ ").
export const hasRow = (ls) => ls.some((l) => /^│?❯ \S/.test(l));
const selectedLine = (ls) => ls.findIndex((l) => /^│?❯ /.test(l));
const scanDone = (ls) => hasRow(ls) && !/scanning/.test(ls[0] ?? "");

/**
 * One launch: ms from spawn to the first frame with rows (and to any frame). `codeCache`
 * false launches without the code cache, as the first launch after an install or upgrade does.
 */
export async function measureFirstRows(sessionsDir, { codeCache = true } = {}) {
  const app = launch(sessionsDir, codeCache ? {} : { PI_SESSIONS_CODE_CACHE: "0" });
  const anyFrame = app.when((ls) => ls.some((l) => l.trim() !== ""));
  const rows = app.when(hasRow);
  const [tAny, tRows] = await Promise.all([anyFrame, rows]);
  const done = await app.when(scanDone, 120_000);
  const rss = app.peakRssMB();
  await app.quit();
  return { firstFrameMs: tAny - app.t0, firstRowsMs: tRows - app.t0, scanDoneMs: done - app.t0, peakRssMB: rss };
}

/**
 * Holds a key: `count` presses `intervalMs` apart (or as soon as the previous press was
 * drawn, when that is later). Each latency is write → first screen change.
 */
async function holdKey(app, key, count, intervalMs) {
  const lat = [];
  let missed = 0;
  const bytes0 = app.bytes();
  for (let i = 0; i < count; i++) {
    const before = app.lines().join("\n");
    const changed = app.when((ls) => ls.join("\n") !== before, 2000);
    const tSend = performance.now();
    app.p.write(key);
    try {
      lat.push((await changed) - tSend);
    } catch {
      missed++; // no change: the end of the list
      if (missed > 3) break;
    }
    const wait = intervalMs - (performance.now() - tSend);
    if (wait > 0) await sleep(wait);
  }
  return { lat, missed, bytesPerKey: (app.bytes() - bytes0) / Math.max(1, lat.length) };
}

export async function measureKeyLatency(sessionsDir, { keys = 1000, intervalMs = 33, log = () => {} } = {}) {
  const app = launch(sessionsDir);
  const scanDoneMs = (await app.when(scanDone, 180_000)) - app.t0;
  const header = app.lines()[0];
  await sleep(300); // let the last scan frame and the preview settle
  const down = await holdKey(app, KEY_DOWN, keys, intervalMs);
  log(
    `  ↓ ×${down.lat.length}: p50 ${percentile(down.lat, 50).toFixed(1)} ms, p95 ${percentile(down.lat, 95).toFixed(1)} ms, max ${Math.max(...down.lat).toFixed(1)} ms`,
  );
  const at = selectedLine(app.lines());
  // End, then ↑ held from the bottom of the list.
  const before = app.lines().join("\n");
  const changed = app.when((ls) => ls.join("\n") !== before, 5000);
  const tEnd = performance.now();
  app.p.write(KEY_END);
  const endMs = (await changed) - tEnd;
  await sleep(200);
  const up = await holdKey(app, KEY_UP, Math.min(keys, 300), intervalMs);
  const rss = app.peakRssMB();
  await app.quit();
  return {
    header,
    scanDoneMs,
    down: down.lat,
    downBytesPerKey: down.bytesPerKey,
    up: up.lat,
    endMs,
    selectedLineAfterDown: at,
    peakRssMB: rss,
  };
}

export async function piListAll(agentDir) {
  const r = await measureNode([join(BENCH_DIR, "pi-listall-child.mjs")], {
    env: { PI_CODING_AGENT_DIR: agentDir },
    stdout: "capture",
  });
  if (r.code !== 0) throw new Error(`pi listAll exited ${r.code}: ${r.stderr.slice(-1000)}`);
  const info = JSON.parse(r.stdout.trim().split("\n").pop());
  return { wallMs: r.wallMs, sessions: info.sessions, listMs: info.listMs };
}

const fmt1 = (ms) => `${ms.toFixed(1)} ms`;

/** The benchmark as bench/run.mjs calls it; `store`/`store10k`/`keys`/`intervalMs`/`withPi` for standalone use. */
export async function run({
  runs = 3,
  log = console.error,
  store,
  store10k,
  keys = 1000,
  intervalMs = 33,
  withPi = true,
} = {}) {
  if (!existsSync(CLI)) throw new Error(`${rel(CLI)} is missing: build first (npx tsc -p .)`);
  const big = store ? storeDirs(store) : ensureStore("s2000", log);
  const small = store10k ? storeDirs(store10k) : ensureStore("s10k-small", log);

  // The warm-up also writes the code cache the measured launches use.
  log(`  first rows on ${rel(big.sessionsDir)}: warm-up…`);
  await measureFirstRows(big.sessionsDir);
  const launches = 2 * runs + 1;
  const first = [];
  const cold = [];
  for (let i = 0; i < launches; i++) {
    // Alternating, so both series see the same machine.
    const r = await measureFirstRows(big.sessionsDir);
    const c = await measureFirstRows(big.sessionsDir, { codeCache: false });
    first.push(r);
    cold.push(c);
    log(
      `  run ${i + 1}/${launches}: first rows ${fmtMs(r.firstRowsMs)} (without the code cache ${fmtMs(c.firstRowsMs)}), scan done ${fmtMs(r.scanDoneMs)}, peak RSS ${fmtMB(r.peakRssMB)}`,
    );
  }
  let pi = null;
  if (withPi) {
    log("  pi listAll() (spawn → exit)…");
    const ps = [];
    for (let i = 0; i < runs; i++) {
      ps.push(await piListAll(big.agentDir));
      log(`  pi run ${i + 1}/${runs}: ${fmtMs(ps[i].wallMs)} (${ps[i].sessions} sessions)`);
    }
    pi = { wallMs: median(ps.map((p) => p.wallMs)), sessions: ps[0].sessions, listMs: median(ps.map((p) => p.listMs)) };
  }
  log(`  key latency on ${rel(small.sessionsDir)}: holding ↓ ${keys}× every ${intervalMs} ms…`);
  const k = await measureKeyLatency(small.sessionsDir, { keys, intervalMs, log });

  const firstRows = median(first.map((r) => r.firstRowsMs));
  const p50 = percentile(k.down, 50);
  const p95 = percentile(k.down, 95);
  const rows = [
    {
      metric: "Launch → first frame showing rows (2,000 sessions, pty)",
      ours: fmtMs(firstRows),
      pi: pi ? `${fmtMs(pi.wallMs)} (listAll, spawn → exit)` : "not run",
      ratio: pi ? `${(pi.wallMs / firstRows).toFixed(0)}× sooner` : "",
      target: "≤ 250 ms, ≥ 30× sooner",
      result: firstRows <= 250 && (!pi || pi.wallMs / firstRows >= 30) ? "PASS" : "FAIL",
    },
    {
      metric: "Launch → first frame showing rows, without the code cache (first launch after an install or upgrade)",
      ours: fmtMs(median(cold.map((r) => r.firstRowsMs))),
      pi: "",
      ratio: "",
      target: "(info)",
      result: "",
    },
    {
      metric: "Launch → scan complete (2,000 sessions, pty)",
      ours: fmtMs(median(first.map((r) => r.scanDoneMs))),
      pi: "",
      ratio: "",
      target: "(info)",
      result: "",
    },
    {
      metric: `↓ held (${k.down.length} keys, 10,000-row list): key → frame p50`,
      ours: fmt1(p50),
      pi: "—",
      ratio: "",
      target: "(info)",
      result: "",
    },
    {
      metric: `↓ held (${k.down.length} keys, 10,000-row list): key → frame p95`,
      ours: fmt1(p95),
      pi: "—",
      ratio: "",
      target: "≤ 16 ms",
      result: p95 <= 16 ? "PASS" : "FAIL",
    },
    {
      metric: "↓ held: bytes written per key",
      ours: `${Math.round(k.downBytesPerKey)} B`,
      pi: "—",
      ratio: "",
      target: "goal ≤ 1 KB",
      result: k.downBytesPerKey <= 1024 ? "PASS" : "FAIL",
    },
    {
      metric: `↑ held from the bottom (${k.up.length} keys): p50 / p95`,
      ours: `${fmt1(percentile(k.up, 50))} / ${fmt1(percentile(k.up, 95))}`,
      pi: "—",
      ratio: "",
      target: "(info)",
      result: "",
    },
    {
      metric: "End on the 10,000-row list: key → frame",
      ours: fmt1(k.endMs),
      pi: "—",
      ratio: "",
      target: "(info)",
      result: "",
    },
    {
      metric: "Browser peak RSS (VmHWM): 2,000-session store / 10,000-row list",
      ours: `${fmtMB(median(first.map((r) => r.peakRssMB)))} / ${fmtMB(k.peakRssMB)}`,
      pi: "",
      ratio: "",
      target: "(info)",
      result: "",
    },
  ];
  const notes = [
    `tui-list: ${COLS}×${ROWS} pty (node-pty) mirrored into @xterm/headless; \`--all\`; first rows = first parsed output whose screen shows the selected row ("❯ "), timed from just before spawn (includes node start). Median of ${launches} launches after a warm-up that writes Node's compile cache (in ${rel(CODE_CACHE_DIR)}); the launches without it alternate with those.`,
    `tui-list: key latency = write of the key to the pty → first parsed output that changes the screen; keys ${intervalMs} ms apart (key-repeat pace) or as soon as the previous key was drawn when that is later. Store ${rel(small.sessionsDir)} (gen-store ${STORES["s10k-small"].join(" ")}); rows shown/total when the keys started: ${/(\d+\/\d+)/.exec(k.header)?.[1] ?? "?"}; the browser's own scan of it took ${fmtMs(k.scanDoneMs)}.`,
  ];
  if (pi)
    notes.push(
      `tui-list: pi listAll() on ${rel(big.agentDir)}: ${pi.sessions} sessions, ${fmtMs(pi.listMs)} in-process, ${fmtMs(pi.wallMs)} spawn → exit (median).`,
    );
  return { rows, notes, raw: { first, cold, pi, keys: k } };
}

function parseArgs(argv) {
  const o = { runs: 3, keys: 1000, intervalMs: 33, withPi: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => argv[++i] ?? usage(`${a} needs a value`);
    if (a === "--store") o.store = val();
    else if (a === "--store10k") o.store10k = val();
    else if (a === "--runs") o.runs = Number(val());
    else if (a === "--keys") o.keys = Number(val());
    else if (a === "--interval") o.intervalMs = Number(val());
    else if (a === "--no-pi") o.withPi = false;
    else if (a === "-h" || a === "--help") usage();
    else usage(`unknown option ${a}`);
  }
  return o;
}

function usage(err) {
  if (err) console.error(`tui: ${err}`);
  console.error(
    "usage: node bench/tui.mjs [--store DIR] [--store10k DIR] [--runs N] [--keys N] [--interval MS] [--no-pi]",
  );
  process.exit(err ? 2 : 0);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const o = parseArgs(process.argv.slice(2));
  const res = await run({ ...o, log: (s) => console.error(s) });
  const table = ["| Metric | pi-sessions | pi 0.73.1 | Ratio | Target | Result |", "|---|---|---|---|---|---|"];
  for (const r of res.rows)
    table.push(`| ${r.metric} | ${r.ours} | ${r.pi} | ${r.ratio} | ${r.target} | ${r.result} |`);
  console.log([...table, "", ...res.notes.map((n) => `- ${n}`)].join("\n"));
  process.exit(0);
}

#!/usr/bin/env node
// Issue 14 benchmark: launch → first rows in the default scope (the current folder) and with
// --all, beside pi 1.5.2's own picker (`pi --resume`) started in the same folder of the same
// 2,000-session store, both in a 120×40 pseudo-terminal (node-pty + @xterm/headless).
//
//   node bench/tui-here.mjs [--runs N]
//
// The store (.bench/stores/s2000-here) has its project folders under .bench/projects, so
// both programs can be started in one: its folder with the most sessions. The clock starts
// just before spawn and stops when the screen first shows a selected row: "❯ " in
// pi-sessions' list, "› " in pi's picker. pi runs from the bundle scripts/pi-oracle.mjs
// caches (the same one the tests use), on this Node (22).
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePiOracle } from "../scripts/pi-oracle.mjs";
import { CLI, CODE_CACHE_DIR, ensureStore, fmtMs, median } from "./lib.mjs";
import { launchInPty } from "./pty.mjs";
import { hasRow } from "./tui.mjs";

export const name = "tui-here";
export const description = "issue 14: first rows in this folder and --all, beside pi 1.5.2 --resume";
export const stores = ["s2000-here"];

const COLS = 120;
const ROWS = 40;
const piHasRow = (ls) => ls.some((l) => /^› \S/.test(l));

/** The store's project folder with the most sessions (its cwd from a header), created on disk so a program can start in it. */
function busiestProject(sessionsDir) {
  let best = { dir: "", files: [] };
  for (const d of readdirSync(sessionsDir)) {
    const files = readdirSync(join(sessionsDir, d)).filter((f) => f.endsWith(".jsonl"));
    if (files.length > best.files.length) best = { dir: d, files };
  }
  const header = JSON.parse(readFileSync(join(sessionsDir, best.dir, best.files[0]), "utf8").split("\n")[0]);
  mkdirSync(header.cwd, { recursive: true });
  return { cwd: header.cwd, count: best.files.length };
}

async function firstRows(cmd, args, { cwd, env, rowCheck }) {
  const s = launchInPty(cmd, args, {
    cols: COLS,
    rows: ROWS,
    cwd,
    env: { CI: undefined, NO_COLOR: undefined, ...env },
  });
  try {
    const at = await s.waitFor((screen) => rowCheck(screen.split("\n")), { timeoutMs: 60_000 });
    return at;
  } finally {
    s.kill();
    await new Promise((r) => setTimeout(r, 150));
  }
}

export async function run({ runs = 3, log = console.error } = {}) {
  const store = ensureStore("s2000-here", log);
  const here = busiestProject(store.sessionsDir);
  const oracle = ensurePiOracle();
  const env = { PI_CODING_AGENT_DIR: store.agentDir, PI_SESSIONS_CACHE_DIR: CODE_CACHE_DIR };
  const ours = (extra) => firstRows(process.execPath, [CLI, ...extra], { cwd: here.cwd, env, rowCheck: hasRow });
  const pi = () =>
    firstRows(oracle.node, [join(oracle.bundle, "..", "cli.js"), "--resume"], {
      cwd: here.cwd,
      env: { PI_CODING_AGENT_DIR: store.agentDir },
      rowCheck: piHasRow,
    });
  log(`  this folder: ${here.count} sessions; warm-up…`);
  await ours([]);
  await pi();
  const hereMs = [];
  const allMs = [];
  const piMs = [];
  const launches = 2 * runs + 1;
  for (let i = 0; i < launches; i++) {
    // Interleaved, so all three see the same machine.
    hereMs.push(await ours([]));
    allMs.push(await ours(["--all"]));
    if (!oracle.skip) piMs.push(await pi());
    log(
      `  run ${i + 1}/${launches}: this folder ${fmtMs(hereMs[i])}, --all ${fmtMs(allMs[i])}, pi --resume ${piMs[i] ? fmtMs(piMs[i]) : "skipped"}`,
    );
  }
  const h = median(hereMs);
  const a = median(allMs);
  const p = piMs.length ? median(piMs) : null;
  const rows = [
    {
      metric: `Launch → first rows, this folder (default scope; ${here.count} of 2,000 sessions, pty)`,
      ours: fmtMs(h),
      pi: p ? `${fmtMs(p)} (pi 1.5.2 --resume)` : oracle.skip,
      ratio: p ? `${(p / h).toFixed(1)}× sooner` : "",
      target: "≤ 250 ms, ≥ 2× sooner",
      result: h <= 250 && (!p || p / h >= 2) ? "PASS" : "FAIL",
    },
    {
      metric: "Launch → first rows, --all (2,000 sessions, pty)",
      ours: fmtMs(a),
      pi: "",
      ratio: "",
      target: "≤ 250 ms",
      result: a <= 250 ? "PASS" : "FAIL",
    },
  ];
  const notes = [
    `tui-here: ${COLS}×${ROWS} pty; both started in ${here.cwd.replace(/^.*\/\.bench\//, ".bench/")} with PI_CODING_AGENT_DIR=${store.agentDir.replace(/^.*\/\.bench\//, ".bench/")}; first rows = the selected row on screen ("❯ " for pi-sessions, "› " for pi); median of ${launches} interleaved launches after one warm-up each.`,
  ];
  return { rows, notes, raw: { hereMs, allMs, piMs } };
}

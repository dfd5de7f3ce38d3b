#!/usr/bin/env node
// Issue #16 benchmark: the usage view (`U`) on the 2,000-session store, in a real pty.
//
//   node bench/tui-usage.mjs [--store DIR] [--runs N]
//
// Launches the browser (`--all`, 120×40, node-pty + @xterm/headless), waits until the scan
// is done, then times `U` → the first frame showing the view with its bars (the clock starts
// at the write of the key and stops when the parsed output first shows a chart row), and the
// keys inside it (d/f/m: switch the grouping). `q` goes back to the list between runs.
// Exports { name, description, stores, run } for bench/run.mjs.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CLI, CODE_CACHE_DIR, ROOT, ensureStore, fmtMs, median, rel } from "./lib.mjs";
import { launchInPty } from "./pty.mjs";

export const name = "tui-usage";
export const description = "issue #16: U → first frame of the usage view, 2,000 sessions, pty";
export const stores = ["s2000"];

const COLS = 120;
const ROWS = 40;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const scanDone = (s) => /❯ \S/.test(s) && !/scanning/.test(s.split("\n")[0] ?? "");
/** The view with bars: its title and at least one chart row (a label, then blocks). */
const usageShown = (title) => (s) => s.includes(`Usage by ${title}`) && /│\S.* [▏▎▍▌▋▊▉█]+ /.test(s);
const listShown = (s) => !s.includes("Usage by") && /❯ \S/.test(s);

/** ms from writing `key` until the screen satisfies `check`. */
async function timeKey(app, key, check) {
  const t = performance.now();
  const done = app.waitFor(check, { since: t, timeoutMs: 30_000 });
  app.proc.write(key);
  return done;
}

export async function run({ runs = 3, log = console.error, store } = {}) {
  if (!existsSync(CLI)) throw new Error(`${rel(CLI)} is missing: build first`);
  const sessionsDir = store ? resolve(store) : ensureStore("s2000", log).sessionsDir;
  const app = launchInPty(process.execPath, [CLI, "--all", "--session-dir", sessionsDir], {
    cols: COLS,
    rows: ROWS,
    cwd: ROOT,
    env: { CI: undefined, NO_COLOR: undefined, PI_SESSIONS_CACHE_DIR: CODE_CACHE_DIR },
  });
  const scanMs = await app.waitFor(scanDone, { timeoutMs: 180_000 });
  await sleep(500); // the last scan frame and the preview settle
  const open = [];
  const switches = [];
  const n = Math.max(5, 3 * runs);
  for (let i = 0; i < n; i++) {
    open.push(await timeKey(app, "U", usageShown("day")));
    for (const [key, title] of [
      ["m", "model"],
      ["f", "folder"],
      ["d", "day"],
    ])
      switches.push(await timeKey(app, key, usageShown(title)));
    await timeKey(app, "q", listShown);
    await sleep(100);
    log(`  run ${i + 1}/${n}: U → view ${fmtMs(open[i])}`);
  }
  const header = app.screen().split("\n")[0];
  await app.quit();
  const o = median(open);
  return {
    rows: [
      {
        metric: "Usage view: U → first frame with bars (2,000 sessions, scan done)",
        ours: fmtMs(o),
        pi: "—",
        ratio: "",
        target: "≤ 500 ms",
        result: o <= 500 ? "PASS" : "FAIL",
      },
      {
        metric: "… d / f / m inside the view → frame (median)",
        ours: fmtMs(median(switches)),
        pi: "—",
        ratio: "",
        target: "(info)",
        result: "",
      },
    ],
    notes: [
      `tui-usage: ${COLS}×${ROWS} pty, \`--all\` on ${rel(sessionsDir)} (${/(\d+\/\d+)/.exec(header)?.[1] ?? "?"} sessions; scan done ${fmtMs(scanMs)} after launch); median of ${n} opens, each timed from the write of \`U\` to the first parsed output showing the view's title and a bar; q back to the list between opens.`,
    ],
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const o = { runs: 3 };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--store") o.store = args[++i];
    else if (args[i] === "--runs") o.runs = Number(args[++i]);
    else {
      console.error("usage: node bench/tui-usage.mjs [--store DIR] [--runs N]");
      process.exit(2);
    }
  }
  const res = await run(o);
  for (const r of res.rows) console.log(`| ${r.metric} | ${r.ours} | ${r.target} | ${r.result} |`);
  for (const n of res.notes) console.log(`- ${n}`);
  process.exit(0);
}

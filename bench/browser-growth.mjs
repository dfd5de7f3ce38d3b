// The browser on a store of many sessions (issue 35), in a pty (bench/pty.mjs, 120×36, CI
// unset): launch → first rows (`--all`), → every row with its facts, then full-text queries
// typed a key every 80 ms (the clock starts at the last key; "answered" when the search bar
// reads the query with "full text" and no count or "…" after it: every session answered, the
// rows about to be shown checked against their files, the rest as the index names them;
// "checked" when no "checking" follows either: every hit checked), and the browser's peak
// RSS (VmHWM) at the end. bench/growth.mjs runs it on each of its stores;
//
//   node bench/browser-growth.mjs SESSIONS_DIR [runs]   (PI_SESSIONS_CACHE_DIR: the index's)
//
// prints each launch's figures (TUI_BENCH_CLI: another build of the CLI; TUI_BENCH_NODE_ARGS: node's flags).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CLI } from "./lib.mjs";
import { launchInPty } from "./pty.mjs";

/** Typed by the bench: two words in nearly every session, and one in none. */
export const QUERIES = ["parser cache", "zebra-never-said"];

/** A query not answered by then is reported as NaN (its screen on stderr). */
const QUERY_TIMEOUT_MS = Number(process.env.BENCH_QUERY_TIMEOUT_MS ?? 120_000);

/** CPU time (user + system, every thread) the process has used, in ms (Linux /proc; NaN elsewhere). */
function cpuMs(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const hasRow = (s) => /^│?❯ \S/m.test(s);

/** One launch: ms to the first rows, to every row's facts, to each query's answer; the peak RSS in MB. */
export async function browserLaunch(sessionsDir, env = {}) {
  const cli = process.env.TUI_BENCH_CLI ?? CLI;
  // TUI_BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles the browser itself.
  const nodeArgs = (process.env.TUI_BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const t = launchInPty(process.execPath, [...nodeArgs, cli, "--all", "--session-dir", sessionsDir], {
    env: { ...env, CI: undefined, NO_COLOR: undefined },
    cols: 120,
    rows: 36,
  });
  try {
    const firstRowsMs = await t.waitFor(hasRow, { timeoutMs: 120_000 });
    const firstRowsCpuMs = cpuMs(t.proc.pid);
    const allMs = await t.waitFor((s) => /all(?: folders)? · \d+\/\d{4,}/.test(s) && !/scanning/.test(s), {
      timeoutMs: 300_000,
    });
    const queryMs = [];
    const queryCpuMs = [];
    const checkedMs = [];
    const checkedCpuMs = [];
    for (const q of QUERIES) {
      t.write("/");
      await t.waitFor((s) => /^\//m.test(s), { timeoutMs: 5000 });
      await sleep(200);
      const keys = Array.from(q);
      for (const ch of keys.slice(0, -1)) {
        t.write(ch);
        await sleep(80);
      }
      const since = performance.now();
      const cpu0 = cpuMs(t.proc.pid);
      t.write(keys.at(-1));
      const done = new RegExp(`^/${escapeRe(q)}\\s.*full text(?! ?\\d)(?!…)`, "m");
      queryMs.push(
        await t
          .waitFor((s) => done.test(s), { since, timeoutMs: QUERY_TIMEOUT_MS })
          .catch(() => (console.error(t.screen().split("\n").slice(0, 2).join("\n")), NaN)),
      );
      queryCpuMs.push(cpuMs(t.proc.pid) - cpu0);
      const checked = (s) => done.test(s) && !/^\/.*full text.*checking/m.test(s);
      checkedMs.push(await t.waitFor(checked, { since, timeoutMs: QUERY_TIMEOUT_MS }).catch(() => NaN));
      checkedCpuMs.push(cpuMs(t.proc.pid) - cpu0);
      // Ctrl+U clears the query, Esc leaves the search.
      t.write("\x15");
      await sleep(300);
      t.write("\x1b");
      await sleep(300);
    }
    const peakRssMB = t.peakRssMB();
    await t.quit();
    return { firstRowsMs, firstRowsCpuMs, allMs, queryMs, queryCpuMs, checkedMs, checkedCpuMs, peakRssMB };
  } catch (err) {
    t.kill();
    throw err;
  } finally {
    // The next launch on a terminal the last one has let go of.
    await sleep(300);
  }
}

/**
 * ↓ held (`keys` presses `intervalMs` apart) on `--all`, key → screen change each, once the
 * list is complete; `whileIndexing`: only while the header says the text index is being built
 * (the scan worker builds it: an index with summaries and no text, `list` run first).
 */
export async function downLatency(sessionsDir, env = {}, { keys = 150, intervalMs = 50, whileIndexing = false } = {}) {
  const cli = process.env.TUI_BENCH_CLI ?? CLI;
  const t = launchInPty(process.execPath, [cli, "--all", "--session-dir", sessionsDir], {
    env: { ...env, CI: undefined, NO_COLOR: undefined },
    cols: 120,
    rows: 36,
  });
  try {
    await t.waitFor((s) => /all(?: folders)? · \d+\/\d{4,}/.test(s) && !/scanning/.test(s), { timeoutMs: 300_000 });
    // Past the first seconds after the list is complete (the watcher starts, the preview reads).
    if (whileIndexing) await t.waitFor((s) => /indexing/.test(s.split("\n")[0]), { timeoutMs: 120_000 });
    await sleep(3000);
    await sleep(300);
    const lat = [];
    let indexing = 0;
    for (let i = 0; i < keys; i++) {
      if (/indexing/.test(t.screen().split("\n")[0])) indexing++;
      lat.push(await t.keyLatency("\x1b[B", { timeoutMs: 5000 }).catch(() => NaN));
      await sleep(intervalMs);
    }
    return { lat: lat.filter(Number.isFinite), indexing };
  } finally {
    t.kill();
    await sleep(300);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "--keys") {
  // node bench/browser-growth.mjs --keys SESSIONS_DIR [indexing]
  const r = await downLatency(process.argv[3], {}, { whileIndexing: process.argv[4] === "indexing" });
  const q = (p) => [...r.lat].sort((a, b) => a - b)[Math.min(r.lat.length - 1, Math.floor((p / 100) * r.lat.length))];
  console.log(
    `↓ ×${r.lat.length} (${r.indexing} while indexing): p50 ${q(50).toFixed(1)} ms, p95 ${q(95).toFixed(1)} ms, max ${Math.max(...r.lat).toFixed(1)} ms`,
  );
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, runs = "3"] = process.argv.slice(2);
  for (let i = 0; i < Number(runs); i++) {
    const r = await browserLaunch(dir);
    console.log(
      `first rows ${r.firstRowsMs.toFixed(0)} ms (CPU ${r.firstRowsCpuMs.toFixed(0)} ms) · all ${r.allMs.toFixed(0)} ms · ` +
        QUERIES.map(
          (q, k) =>
            `'${q}' ${r.queryMs[k].toFixed(0)} ms (CPU ${r.queryCpuMs[k].toFixed(0)} ms), checked ` +
            `${r.checkedMs[k].toFixed(0)} ms (CPU ${r.checkedCpuMs[k].toFixed(0)} ms)`,
        ).join(" · ") +
        ` · peak RSS ${r.peakRssMB.toFixed(0)} MB`,
    );
  }
}

// Issue 35 benchmark: how each figure grows with the sessions a store holds. Stores of many
// small sessions (gen-store --projects N/125 --seed 9 --avg-kb 12: 10,000, 50,000 and 100,000
// sessions; PI_SESSIONS_BENCH_GROWTH=2000,4000 for others), each generated once into .bench/.
// On each: the first `list --all` as text and `list --all --json` (each builds the summaries), `index` from there, the
// floors (a stat of every file by `find -printf`, `cat` of every byte), then relaunches with
// the index built: `list --all --json`, `list --all` as text, `search` a hit and a typo (a
// question not asked before: -n N), `stats --all` (its kept answer, and a `--since` day not asked
// before), and the browser in a pty (bench/browser-growth.mjs:
// first rows of `--all`, full-text queries after their last key, peak RSS). Then each figure's
// growth from the smallest store to the largest beside the sessions' own growth: none may grow faster.
import { readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CACHE,
  CLI,
  STORES,
  ensureStore,
  fmtMB,
  fmtMs,
  measureCommand,
  measureNode,
  median,
  ok,
  storeFiles,
} from "./lib.mjs";
import { browserLaunch, QUERIES } from "./browser-growth.mjs";

export const name = "growth";
export const description = "issue 35: each figure at 10k, 50k and 100k small sessions, and its growth";

const SIZES = (process.env.PI_SESSIONS_BENCH_GROWTH ?? "10000,50000,100000").split(",").map(Number);
const storeName = (n) => `growth-${n}`;
for (const n of SIZES)
  STORES[storeName(n)] = [
    "--sessions",
    String(n),
    "--projects",
    String(Math.max(1, Math.round(n / 125))),
    "--seed",
    "9",
    "--avg-kb",
    "12",
  ];
export const stores = SIZES.map(storeName);

/** The index's files on disk (the database, its WAL, the kept answers), in bytes. */
function cacheBytes(dir) {
  let n = 0;
  for (const d of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (d.isFile()) n += statSync(join(d.parentPath, d.name)).size;
  return n;
}

const RELAUNCH = {
  "list --all --json": () => ["list", "--all", "--json", "-q"],
  "list --all (text)": () => ["list", "--all", "-q"],
  "search a hit": (i) => ["search", "--all", "--json", "-q", "-n", String(21 + i), "keyboard"],
  "search a typo": (i) => ["search", "--all", "--json", "-q", "-n", String(21 + i), "zebra-never-said"],
  "stats --all": () => ["stats", "--all", "-q"],
  // Its kept answer is not the only fast path: a day not asked before each run adds up the usage columns kept for the store.
  "stats --all --since DAY (not asked before)": (i) => [
    "stats",
    "--all",
    "-q",
    "--since",
    new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10),
  ],
};

async function measureStore(n, runs, log) {
  const store = ensureStore(storeName(n), log);
  const cacheDir = join(CACHE, `growth-cache-${n}`);
  const env = { PI_SESSIONS_CACHE_DIR: cacheDir, PI_SESSIONS_INDEX: "1" };
  const files = storeFiles(store.sessionsDir);
  const storeBytes = files.reduce((s, f) => s + statSync(f).size, 0);
  const nulList = join(CACHE, `growth-${n}-files.nul`);
  writeFileSync(nulList, files.join("\0"));
  const cli = (args) => [CLI, ...args, "--session-dir", store.sessionsDir];

  log(`  ${n} sessions: first list as text and as JSON (each builds the summaries), then index…`);
  // The text list's first run, into a cache folder of its own (thrown away after).
  const textCache = join(CACHE, `growth-cache-${n}-text`);
  rmSync(textCache, { recursive: true, force: true });
  const firstText = ok(
    await measureNode(cli(["list", "--all", "-q"]), { env: { ...env, PI_SESSIONS_CACHE_DIR: textCache } }),
    "first text list",
  );
  rmSync(textCache, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true }); // nothing kept from an earlier run
  const first = ok(await measureNode(cli(["list", "--all", "--json", "-q"]), { env }), "first list");
  const index = ok(await measureNode(cli(["index"]), { env }), "index");
  const indexBytes = cacheBytes(cacheDir);

  const out = { sessions: n, storeBytes, indexBytes, firstText, first, index, stat: [], cat: [], relaunch: {} };
  for (const k of Object.keys(RELAUNCH)) out.relaunch[k] = [];
  // Three warm-ups of every command (each a question not asked before), then `runs` rounds: an
  // answer is kept once two runs in a row saw the same store, and search keeps its rows first,
  // then what the index covers of them (a relaunch is what a user's third run of it costs).
  for (let w = 0; w < 3; w++)
    for (const args of Object.values(RELAUNCH)) await measureNode(cli(args(runs + w)), { env });
  for (let i = 0; i < runs; i++) {
    out.stat.push(await measureCommand("find", [store.sessionsDir, "-printf", "%s %T@ %i\\n"]));
    out.cat.push(await measureCommand("xargs", ["-0", "cat"], { stdinFile: nulList }));
    for (const [k, args] of Object.entries(RELAUNCH)) {
      const r = await measureNode(cli(args(i)), { env });
      // search exits 1 when nothing matches: a result, not a failure.
      if (r.code > 1) throw new Error(`${k}: ${r.stderr}`);
      out.relaunch[k].push(r);
    }
  }
  log(`  ${n} sessions: the browser in a pty…`);
  // A warm-up launch (the first after `index` may write what later ones read), then `runs`.
  await browserLaunch(store.sessionsDir, env);
  out.browser = [];
  for (let i = 0; i < runs; i++) {
    const b = await browserLaunch(store.sessionsDir, env);
    log(
      `    first rows ${fmtMs(b.firstRowsMs)} · ${QUERIES.map((q, k) => `'${q}' ${fmtMs(b.queryMs[k])}`).join(" · ")} · ${fmtMB(b.peakRssMB)}`,
    );
    out.browser.push(b);
  }
  return out;
}

export async function run({ runs, log }) {
  const at = [];
  for (const n of SIZES) at.push(await measureStore(n, runs, log));
  const rows = [];
  const grow = (xs) => xs[xs.length - 1] / xs[0];
  const sessionsGrowth = grow(at.map((a) => a.sessions));
  const row = (metric, values, fmt, { target = "", pass } = {}) => {
    const g = grow(values);
    rows.push({
      metric: `${metric}: ${at.map((a) => a.sessions.toLocaleString("en")).join(" / ")}`,
      ours: values.map(fmt).join(" / "),
      pi: "",
      ratio: `×${g.toFixed(2)} (sessions ×${sessionsGrowth.toFixed(0)})`,
      target: target || "growth ≤ the sessions' (+10 %: noise)",
      result: target === "(info)" ? "" : (pass ?? true) && g <= 1.1 * sessionsGrowth ? "PASS" : "FAIL",
    });
  };
  const statMs = at.map((a) => median(a.stat.map((r) => r.wallMs)));
  const catMs = at.map((a) => median(a.cat.map((r) => r.wallMs)));
  row("floor: stat of every file (`find -printf`)", statMs, fmtMs, { target: "(info)" });
  row("floor: reading every byte (`cat`)", catMs, fmtMs, { target: "(info)" });
  row(
    "store size",
    at.map((a) => a.storeBytes / 2 ** 20),
    (x) => fmtMB(x),
    { target: "(info)" },
  );
  row(
    "first `list --all --json`, wall",
    at.map((a) => a.first.wallMs),
    fmtMs,
  );
  row(
    "first `list --all --json`, peak RSS",
    at.map((a) => a.first.rssMB),
    fmtMB,
    { target: "≤ 250 MB", pass: at.every((a) => a.first.rssMB <= 250) },
  );
  row(
    "first `list --all` (text), peak RSS",
    at.map((a) => a.firstText.rssMB),
    fmtMB,
    { target: "≤ 250 MB", pass: at.every((a) => a.firstText.rssMB <= 250) },
  );
  row(
    "`index`, wall",
    at.map((a) => a.index.wallMs),
    fmtMs,
  );
  row(
    "`index`, CPU (user + system: what a shared machine does not change)",
    at.map((a) => a.index.cpuMs),
    fmtMs,
    { target: "(info)" },
  );
  row(
    "`index`, peak RSS",
    at.map((a) => a.index.rssMB),
    fmtMB,
    { target: "≤ 250 MB", pass: at.every((a) => a.index.rssMB <= 250) },
  );
  row(
    "index on disk ÷ the store",
    at.map((a) => a.indexBytes / a.storeBytes),
    (x) => `${(x * 100).toFixed(0)} %`,
    { target: "≤ 25 %", pass: at.every((a) => a.indexBytes / a.storeBytes <= 0.25) },
  );
  for (const k of Object.keys(RELAUNCH)) {
    const ms = at.map((a) => median(a.relaunch[k].map((r) => r.wallMs)));
    const rss = at.map((a) => median(a.relaunch[k].map((r) => r.rssMB)));
    const bound = at.map((_, i) => Math.max(2 * statMs[i], 0.15 * catMs[i]));
    row(`\`${k}\` relaunch, wall`, ms, fmtMs, {
      target: "≤ max(2 × stat, 0.15 × cat)",
      pass: ms.every((m, i) => m <= bound[i]),
    });
    row(`\`${k}\` relaunch, peak RSS`, rss, fmtMB, { target: "≤ 250 MB", pass: rss.every((m) => m <= 250) });
  }
  // On a shared machine wall time swings with the load: CPU time (user + system) says what
  // a search itself costs. Proving "no match" may cost no more than finding one (issue 34).
  const cpu = (k) => at.map((a) => median(a.relaunch[k].map((r) => r.cpuMs)));
  const hitCpu = cpu("search a hit");
  const typoCpu = cpu("search a typo");
  row("`search a hit` relaunch, CPU", hitCpu, fmtMs);
  row("`search a typo` relaunch, CPU", typoCpu, fmtMs);
  row(
    "`search a typo` ÷ `search a hit`, CPU",
    at.map((_, i) => typoCpu[i] / hitCpu[i]),
    (x) => x.toFixed(2),
    { target: "≤ 1 (a typo costs no more than a hit)", pass: at.every((_, i) => typoCpu[i] <= hitCpu[i]) },
  );
  const browser = (f) => at.map((a) => median(a.browser.map(f)));
  const firstRows = browser((b) => b.firstRowsMs);
  row("browser `--all`: launch → first rows", firstRows, fmtMs, {
    target: "≤ 400 ms at 50,000; growth ≤ the sessions'",
    pass: at.every((a, i) => a.sessions > 50_000 || firstRows[i] <= 400),
  });
  row(
    "… its CPU time (user + system, both threads)",
    browser((b) => b.firstRowsCpuMs),
    fmtMs,
    { target: "(info)" },
  );
  QUERIES.forEach((q, k) => {
    const ms = browser((b) => b.queryMs[k]);
    row(`browser: full text \`${q}\` answered over every session, after its last key`, ms, fmtMs, {
      target: "≤ 1.5 s at 50,000; growth ≤ the sessions'",
      pass: at.every((a, i) => a.sessions > 50_000 || ms[i] <= 1500),
    });
    row(
      "… its CPU time from the last key",
      browser((b) => b.queryCpuMs[k]),
      fmtMs,
      { target: "(info)" },
    );
  });
  const rss = browser((b) => b.peakRssMB);
  row("browser: peak RSS (after both queries)", rss, fmtMB, {
    target: "≤ 400 MB at 50,000",
    pass: at.every((a, i) => a.sessions > 50_000 || rss[i] <= 400),
  });
  return {
    rows,
    notes: [
      `growth: stores of ${SIZES.join(", ")} sessions (gen-store --projects N/125 --seed 9 --avg-kb 12); medians of ${runs}; ` +
        "the browser: 120×36 pty, a warm-up launch, then the median of the runs; a query typed a key every 80 ms.",
    ],
  };
}

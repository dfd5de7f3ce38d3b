#!/usr/bin/env node
// pi-sessions benchmarks: `npm run bench` (builds, then runs this file against dist/).
//
//   node bench/run.mjs [--only NAME[,NAME]] [--runs N] [--list]
//
// Stores are generated once by bench/gen-store.mjs into .bench/stores/<name>/ and reused
// (a marker file records the generator args and hash). Each benchmark is a module in
// bench/ exporting { name, description, stores, run({ runs, log }) → { rows, notes } }
// or { pending: "why" } for one not written yet; add new ones to BENCHMARKS below.
// Results: a Markdown table on stdout and in .bench/results.md.
import { mkdirSync, writeFileSync } from "node:fs";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cpus, loadavg, totalmem } from "node:os";
import { CACHE, CLI, ensureStore, rel, rssMethod } from "./lib.mjs";

const BENCHMARKS = [
  "./listing.mjs", // issue #2
  "./tui.mjs", // issue #3: first frame + key latency in a pty (node-pty + @xterm/headless)
  "./tui-here.mjs", // issue 14: first rows in this folder and --all, beside pi 1.5.2 --resume
  "./tui-tree.mjs", // issue #4: 50,000-entry tree, first frame + key latency vs pi open()+getTree()
  "./reader.mjs", // issue #16: the transcript model on a linear 50,000-entry session
  "./hostile.mjs", // issue #17: peak RSS of `list` on a session ending in a 1 GiB NUL tail
  "./tui-reader.mjs", // issue #16: `v` → the reader on a 50,000-entry session in a pty
  "./tui-usage.mjs", // issue #16: U → the usage view on 2,000 sessions
  "./index.mjs", // issue 23: the persistent index on 10,000 sessions / 4 GB
  "./growth.mjs", // issue 35: each figure at 10k, 50k and 100k small sessions, and its growth
  "./remote.mjs", // issue 36: two hosts over ssh on loopback
];

function parseArgs(argv) {
  const o = { runs: 3, only: null, list: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      const v = a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    if (a === "--runs" || a.startsWith("--runs=")) o.runs = Number(val());
    else if (a === "--only" || a.startsWith("--only=")) o.only = val().split(",");
    else if (a === "--list") o.list = true;
    else if (a === "-h" || a === "--help") usage();
    else usage(`unknown option ${a}`);
  }
  if (!Number.isInteger(o.runs) || o.runs < 1) usage("--runs must be a positive integer");
  return o;
}

function usage(err) {
  if (err) console.error(`bench: ${err}`);
  console.error("usage: node bench/run.mjs [--only NAME[,NAME]] [--runs N (default 3, median reported)] [--list]");
  process.exit(err ? 2 : 0);
}

const opts = parseArgs(process.argv.slice(2));
const log = (s) => console.error(s);
const modules = await Promise.all(BENCHMARKS.map((m) => import(m)));
if (opts.list) {
  for (const m of modules) console.log(`${m.name.padEnd(10)} ${m.pending ? "(pending) " : ""}${m.description}`);
  process.exit(0);
}
if (opts.only) {
  const unknown = opts.only.filter((n) => !modules.some((m) => m.name === n));
  if (unknown.length) usage(`unknown benchmark ${unknown.join(", ")} (have: ${modules.map((m) => m.name).join(", ")})`);
}
if (!existsSync(CLI)) usage(`${rel(CLI)} is missing: build first (npm run bench does)`);
const selected = modules.filter((m) => (opts.only ? opts.only.includes(m.name) : true));

mkdirSync(CACHE, { recursive: true });
// Generate every store the selected benchmarks need before timing anything.
for (const m of selected) if (!m.pending) for (const s of m.stores ?? []) ensureStore(s, log);

const header = [
  `Node ${process.version}, ${cpus().length} CPU (${cpus()[0]?.model.trim() ?? "?"}), ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM, ${process.platform}.`,
  `Median of ${opts.runs} run(s) after one warm-up pass of every tool. Runs are **warm-cache**: the OS page cache ` +
    `can't be dropped here, so the store files are in memory for both tools alike.`,
  `Wall time is spawn → exit of a separate \`node\` process; peak RSS via ${rssMethod()}. ` +
    `Load average when the run started: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")} (other work on the machine skews wall times; CPU time less so).`,
];
const table = [
  "| Benchmark | Metric | pi-sessions | pi (0.73.1 unless the cell names another) | Ratio | Target | Result |",
  "|---|---|---|---|---|---|---|",
];
const notes = [];
for (const m of selected) {
  if (m.pending) {
    table.push(`| ${m.name} | ${m.description} | — | — | — | — | not run: ${m.pending} |`);
    continue;
  }
  log(`\n# ${m.name}: ${m.description}`);
  const res = await m.run({ runs: opts.runs, log });
  for (const r of res.rows)
    table.push(`| ${m.name} | ${r.metric} | ${r.ours} | ${r.pi} | ${r.ratio} | ${r.target} | ${r.result} |`);
  notes.push(...(res.notes ?? []));
}
const md = [...header, "", ...table, "", ...notes.map((n) => `- ${n}`), ""].join("\n");
writeFileSync(join(CACHE, "results.md"), md);
console.log(`\n${md}`);
log(`written to ${rel(join(CACHE, "results.md"))}`);

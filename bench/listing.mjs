// Issue #2 benchmark: pi's SessionManager.listAll() versus our full listing, each as a
// whole separate process (wall time + peak RSS), and the time until the first 50 rows
// (header probes) are known.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BENCH_DIR, CLI, ROOT, ensureStore, fmtMB, fmtMs, measureNode, median, ok, rel } from "./lib.mjs";

export const name = "listing";
export const description = "issue #2: full listing vs pi listAll(), first 50 rows";
export const stores = ["s2000"];

const TARGET_SPEEDUP = 10;
const TARGET_RSS_MB = 300;
const TARGET_FIRST_ROWS_MS = 150;
const FIRST_ROWS = 50;

export async function run({ runs, log }) {
  const store = ensureStore("s2000", log);
  const piEnv = { PI_CODING_AGENT_DIR: store.agentDir };
  // pi as users run it: default V8 flags (its 3.7 GB peak fits the default heap limit here).
  const piArgs = [join(BENCH_DIR, "pi-listall-child.mjs")];
  const oursArgs = [CLI, "list", "--all", "--json", "--session-dir", store.sessionsDir];
  const probeArgs = [
    join(BENCH_DIR, "probe-child.mjs"),
    pathToFileURL(join(ROOT, "dist", "src", "scan", "scan-store.js")).href,
    store.sessionsDir,
    String(FIRST_ROWS),
  ];

  const pi = [];
  const ours = [];
  const probe = [];
  log("  warm-up pass (both tools, results discarded)…");
  ok(await measureNode(piArgs, { env: piEnv, stdout: "capture" }), "pi listAll");
  ok(await measureNode(oursArgs), "pi-sessions list");
  ok(await measureNode(probeArgs, { stdout: "capture" }), "probe child");
  let piCount = NaN;
  let piInProcess = [];
  for (let i = 0; i < runs; i++) {
    // Alternate the tools so drift (thermal, other load) hits both alike.
    const p = ok(await measureNode(piArgs, { env: piEnv, stdout: "capture" }), "pi listAll");
    const info = JSON.parse(p.stdout.trim().split("\n").pop());
    piCount = info.sessions;
    piInProcess.push(info.listMs);
    pi.push(p);
    ours.push(ok(await measureNode(oursArgs), "pi-sessions list"));
    const pr = ok(await measureNode(probeArgs, { stdout: "capture" }), "probe child");
    const r = JSON.parse(pr.stdout.trim().split("\n").pop());
    if (r.error) throw new Error(`probe child: ${r.error}`);
    probe.push({ ...r, wallMs: pr.wallMs });
    log(
      `  run ${i + 1}/${runs}: pi ${fmtMs(p.wallMs)} ${fmtMB(p.rssMB)} | ours ${fmtMs(ours[i].wallMs)} ${fmtMB(ours[i].rssMB)} | ` +
        `first ${FIRST_ROWS} rows ${fmtMs(r.sinceStartMs)} (scan ${fmtMs(r.sinceScanMs)})`,
    );
  }

  const piWall = median(pi.map((r) => r.wallMs));
  const piCpu = median(pi.map((r) => r.cpuMs));
  const ourCpu = median(ours.map((r) => r.cpuMs));
  const piListOnly = median(piInProcess);
  const piRss = median(pi.map((r) => r.rssMB));
  const ourWall = median(ours.map((r) => r.wallMs));
  const ourRss = median(ours.map((r) => r.rssMB));
  const firstStart = median(probe.map((r) => r.sinceStartMs));
  const firstScan = median(probe.map((r) => r.sinceScanMs));
  const firstLaunch = median(probe.map((r) => r.wallMs));
  const speedup = piWall / ourWall;
  const pf = (b) => (b ? "PASS" : "FAIL");

  return {
    notes: [
      `Store: ${rel(store.sessionsDir)} — ${piCount} sessions listed by pi (\`gen-store.mjs ${["--sessions", "2000", "--projects", "40"].join(" ")}\`).`,
      `pi's whole process includes importing @mariozechner/pi-coding-agent (~0.7–0.9 s); its listAll() call alone took a median ${fmtMs(piListOnly)}, ${(piListOnly / ourWall).toFixed(1)}× our whole process.`,
      `CPU time is user + system of the whole process (all threads), from the same measurement as wall time.`,
      `Every run (wall): pi ${pi.map((r) => fmtMs(r.wallMs)).join(", ")}; ours ${ours.map((r) => fmtMs(r.wallMs)).join(", ")}; ` +
        `first ${FIRST_ROWS} rows ${probe.map((r) => fmtMs(r.sinceStartMs)).join(", ")}. A wide spread means other load on the machine: re-run on a quiet one.`,
    ],
    rows: [
      {
        metric: "Full listing, wall time (whole process)",
        ours: fmtMs(ourWall),
        pi: fmtMs(piWall),
        ratio: `${speedup.toFixed(1)}× faster`,
        target: `≥ ${TARGET_SPEEDUP}× faster`,
        result: pf(speedup >= TARGET_SPEEDUP),
      },
      {
        metric: "Full listing, CPU time (user + sys)",
        ours: fmtMs(ourCpu),
        pi: fmtMs(piCpu),
        ratio: `${(piCpu / ourCpu).toFixed(1)}× less`,
        target: "(info)",
        result: "",
      },
      {
        metric: "Full listing, peak RSS",
        ours: fmtMB(ourRss),
        pi: fmtMB(piRss),
        ratio: `${(piRss / ourRss).toFixed(1)}× less`,
        target: `≤ ${TARGET_RSS_MB} MB`,
        result: pf(ourRss <= TARGET_RSS_MB),
      },
      {
        metric: `First ${FIRST_ROWS} rows known (header probes), from process start`,
        ours: fmtMs(firstStart),
        pi: "—",
        ratio: `${(piWall / firstStart).toFixed(0)}× sooner than pi's full list`,
        target: `≤ ${TARGET_FIRST_ROWS_MS} ms`,
        result: pf(firstStart <= TARGET_FIRST_ROWS_MS),
      },
      {
        metric: `First ${FIRST_ROWS} rows known, from just before scanStore()`,
        ours: fmtMs(firstScan),
        pi: "—",
        ratio: "",
        target: "(info)",
        result: "",
      },
      {
        metric: `First ${FIRST_ROWS} rows, spawn → child exit (incl. node start/teardown)`,
        ours: fmtMs(firstLaunch),
        pi: "—",
        ratio: "",
        target: "(info)",
        result: "",
      },
    ],
  };
}

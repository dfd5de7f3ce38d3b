// Child process: our cold tree open on one session file, without the UI: read the session
// into its skimmed index and lay out the default view, in a fresh process (nothing read
// or compiled before). What `t` costs when the preview has not read the session yet, minus
// the frame itself. Prints one JSON line of timings.
const t0 = performance.now();
const { loadSessionIndex } = await import("../dist/src/store/session-index.js");
const { buildTreeView } = await import("../dist/src/model/tree-view.js");
const t1 = performance.now();
const index = await loadSessionIndex(process.argv[2], { skim: true });
const t2 = performance.now();
const view = buildTreeView(index, "default", new Set());
const t3 = performance.now();
process.stdout.write(
  `${JSON.stringify({ entries: index.nodes.length, rows: view.rows.length, importMs: t1 - t0, indexMs: t2 - t1, viewMs: t3 - t2, coldMs: t3 - t1 })}\n`,
);

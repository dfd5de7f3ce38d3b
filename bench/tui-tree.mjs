// Issue #4 (pending): one 50,000-entry session (store `huge50k` in lib.mjs:
// gen-store.mjs --sessions 0 --huge-entries 50000): time from pressing `t` to the first tree
// frame, and key latency while moving, driven in a pty with bench/pty.mjs; side by side with
// pi's own SessionManager.open(file) + getTree() in a child process (measureNode() gives
// wall + peak RSS; pi ≈ 1.4 s / 740 MB here). Targets: first tree frame ≤ 400 ms,
// key latency p95 ≤ 16 ms, peak RSS ≤ 1/3 of pi's.
export const name = "tui-tree";
export const description = "issue #4: 50k-entry tree view first frame + key latency vs pi open()+getTree()";
export const stores = ["huge50k"];
export const pending = "tree view not built yet (issue #4)";

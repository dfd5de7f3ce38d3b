// Issue #3 (pending): launch-to-first-frame of the browser on the 2,000-session store, and
// key-to-frame latency (p50/p95) while holding ↓ through a 10,000-row list, side by side
// with pi's listAll(). Targets: first rows ≤ 250 ms and ≥ 30× sooner than pi; p95 ≤ 16 ms.
//
// Plan — the driver exists: bench/pty.mjs (node-pty 1.2.0-beta.15 + @xterm/headless 6.0.0):
//   - s = launchInPty(process.execPath, [CLI, "--all", "--session-dir", store.sessionsDir]);
//     first frame = await s.waitFor((screen) => <a session row is visible>), ms since spawn.
//   - key latency: repeat ~500× `await s.keyLatency(KEYS.down)` (time until the screen
//     differs), report p50/p95 with percentile() from lib.mjs. The 10,000-row list needs a
//     store of its own: add it to STORES in lib.mjs (e.g. --sessions 10000 --avg-kb 4).
//   - pi side: run listing.mjs's pi child (pi-listall-child.mjs) via measureNode() in the
//     same run; ratio = pi wall / our first frame.
//   - peak RSS: s.peakRssMB() (VmHWM) before s.kill().
export const name = "tui-list";
export const description = "issue #3: browser first frame + ↓ key latency in a pty";
export const stores = ["s2000"];
// When implemented: drop `pending`, export async function run({ runs, log }) → { rows, notes }
// (rows: { metric, ours, pi, ratio, target, result }), like listing.mjs.
export const pending = "browser not built yet (issue #3)";

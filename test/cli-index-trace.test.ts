// `pi-sessions index` with PI_SESSIONS_TRACE: a line at the end of each phase of a build (the
// scan, the text, the packing, the log folded in) with the process's CPU and memory so far,
// to tell where a build's time and its peak go (docs/performance.md, issue 35).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE, settle } from "./helpers/tmp-store.js";

afterAll(cleanupTmp);
afterEach(() => {
  delete process.env.PI_SESSIONS_TRACE;
  vi.resetModules();
});

/** `pi-sessions index` over a copy of the pi store into a fresh cache, traced to a file: its result and the trace's lines. */
async function tracedIndex(env: Record<string, string> = {}) {
  const store = copyStore(PI_STORE);
  settle(store);
  const file = join(makeTmpDir(), "trace.txt");
  // The trace's switch is read when its module loads: set first, the modules loaded anew.
  process.env.PI_SESSIONS_TRACE = file;
  vi.resetModules();
  const { runCli } = await import("./helpers/cli.js");
  const r = await runCli(["index", "--session-dir", store], {
    env: { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-"), ...env },
  });
  expect(r.code, r.stderr).toBe(0);
  return { r, lines: readFileSync(file, "utf8").trimEnd().split("\n") };
}

describe("pi-sessions index traced", () => {
  it("says each phase's end in order, with the CPU and memory so far", async () => {
    const { lines } = await tracedIndex();
    const phases = lines.map(
      (line) => /^\S+ \S+ \d+ index ([a-z ]+): cpu [\d.]+ s, rss [\d.]+ MB, heap [\d.]+\/[\d.]+ MB/.exec(line)?.[1],
    );
    // A first build of every session's text: its file packed (VACUUM) before the log is folded in.
    expect(phases).toEqual(["scanned", "collected", "text written", "packed", "checkpointed"]);
  });

  it("says every PI_SESSIONS_TRACE_EVERY files of the scan and of the text, in order", async () => {
    const { r, lines } = await tracedIndex({ PI_SESSIONS_TRACE_EVERY: "10" });
    const sessions = Number(/^index of (\d+) sessions/.exec(r.stderr)?.[1]);
    expect(sessions).toBeGreaterThanOrEqual(20);
    const phases = lines.map((line) => /^\S+ \S+ \d+ index ([a-z\d ]+): cpu [\d.]+ s, rss [\d.]+ MB/.exec(line)?.[1]);
    const tens = (last: number) => Array.from({ length: Math.floor(last / 10) }, (_, k) => (k + 1) * 10);
    // The scan's every tenth file read, then the text's every tenth of the sessions (all new here).
    expect(phases).toEqual([
      ...tens(sessions).map((n) => `scan ${n}`),
      "scanned",
      "collected",
      ...tens(sessions).map((n) => `text ${n} of ${sessions}`),
      "text written",
      "packed",
      "checkpointed",
    ]);
  });
});

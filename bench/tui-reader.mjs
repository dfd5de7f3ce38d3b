// Issue #16 in the terminal: the transcript reader on one 50,000-entry session (store
// `huge50k`, as tui-tree). Time from pressing `v` on the selected session to the first
// reader frame showing the conversation's end, and key latency paging up through it
// (Ctrl+U) and moving line by line (k). Target: the end on screen in ≤ 300 ms.
import { basename, join } from "node:path";
import { CLI, CODE_CACHE_DIR, ensureStore, fmtMs, largestSession, median, percentile } from "./lib.mjs";
import { launchInPty } from "./pty.mjs";

export const name = "tui-reader";
export const description = "issue #16: `v` → the reader at the end of a 50k-entry session, key latency inside it";
export const stores = ["huge50k"];

const TARGET_MS = 300;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function once(sessionsDir, file, keys) {
  const id = basename(file)
    .replace(/\.jsonl$/, "")
    .split("_")
    .pop();
  const env = { CI: undefined, NO_COLOR: undefined, PI_SESSIONS_CACHE_DIR: CODE_CACHE_DIR };
  const app = launchInPty(process.execPath, [CLI, "--session-dir", sessionsDir, "--all", "--query", id], {
    cols: 120,
    rows: 40,
    env,
  });
  await app.waitFor((s) => /❯ \S/.test(s) && !/scanning/.test(s.split("\n")[0]), { timeoutMs: 120_000 });
  // As a user does: the cursor rests on the session, so the preview has read its index.
  await sleep(1500);
  const since = performance.now();
  app.write("v");
  const firstFrameMs = await app.waitFor((s) => s.includes("Transcript") && !s.includes("loading the conversation"), {
    timeoutMs: 60_000,
    since,
  });
  await sleep(300);
  const pageLat = [];
  const lineLat = [];
  for (let i = 0; i < keys; i++) {
    try {
      pageLat.push(await app.keyLatency("\x15", { timeoutMs: 2000 }));
      await sleep(16);
      lineLat.push(await app.keyLatency("k", { timeoutMs: 2000 }));
      await sleep(16);
    } catch {
      break;
    }
  }
  app.kill();
  return { firstFrameMs, pageLat, lineLat };
}

export async function run({ runs = 3, log = console.error } = {}) {
  const store = ensureStore("huge50k", log);
  const huge = largestSession(store.sessionsDir);
  await once(store.sessionsDir, huge.path, 5);
  const us = [];
  for (let i = 0; i < runs; i++) {
    us.push(await once(store.sessionsDir, huge.path, 100));
    log(`  run ${i + 1}: v → reader ${fmtMs(us.at(-1).firstFrameMs)}`);
  }
  const first = median(us.map((u) => u.firstFrameMs));
  const page = us.flatMap((u) => u.pageLat);
  const line = us.flatMap((u) => u.lineLat);
  return {
    rows: [
      {
        metric: "`v` → the reader at the end (50,000 entries)",
        ours: fmtMs(first),
        pi: "—",
        ratio: "",
        target: `≤ ${TARGET_MS} ms`,
        result: first <= TARGET_MS ? "PASS" : "FAIL",
      },
      {
        metric: "Ctrl+U (half a page up), p50 / p95",
        ours: `${percentile(page, 50).toFixed(1)} / ${percentile(page, 95).toFixed(1)} ms`,
        pi: "—",
        ratio: "",
        target: "(info)",
        result: "",
      },
      {
        metric: "k (a line up), p50 / p95",
        ours: `${percentile(line, 50).toFixed(1)} / ${percentile(line, 95).toFixed(1)} ms`,
        pi: "—",
        ratio: "",
        target: "(info)",
        result: "",
      },
    ],
    notes: [
      `Session: ${(huge.size / 1e6).toFixed(0)} MB. The reader reuses the index the preview read (src/store/index-cache.ts) and lays out only the last screen.`,
    ],
  };
}

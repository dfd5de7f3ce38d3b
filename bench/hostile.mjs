// Issue #17 benchmark: peak memory on a hostile store. One session ends in a 1 GiB tail
// of NUL bytes with no newline (a sparse file: it costs no disk), as a crash that extended
// a file without writing it leaves behind. `list` must not hold that "line": the line
// reader caps what one line may cost (MAX_LINE_BYTES) and reports it instead.
import { mkdirSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CACHE, CLI, fmtMB, fmtMs, measureNode, median, ok } from "./lib.mjs";

export const name = "hostile";
export const description = "issue #17: peak RSS of `list` on a session ending in a 1 GiB NUL tail";
export const stores = [];

const TARGET_RSS_MB = 300;
const TAIL_BYTES = 1024 ** 3;

function makeStore() {
  const dir = join(CACHE, "stores", "nul-tail", "sessions");
  rmSync(dir, { recursive: true, force: true });
  const folder = join(dir, "--tmp-proj--");
  mkdirSync(folder, { recursive: true });
  const file = join(folder, "2026-05-02T09-14-03-221Z_cccc3333-0000-7000-8000-000000000003.jsonl");
  const lines = [
    {
      type: "session",
      version: 3,
      id: "cccc3333-0000-7000-8000-000000000003",
      timestamp: "2026-05-02T09:14:03.221Z",
      cwd: "/tmp/proj",
    },
    {
      type: "message",
      id: "u1",
      parentId: null,
      timestamp: "2026-05-02T09:15:00.000Z",
      message: { role: "user", content: "hi", timestamp: 1 },
    },
  ];
  const head = lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
  writeFileSync(file, head);
  // Extends the file with a hole: reads return NUL bytes, the disk holds nothing.
  truncateSync(file, Buffer.byteLength(head) + TAIL_BYTES);
  return dir;
}

export async function run({ runs, log }) {
  const dir = makeStore();
  const args = [CLI, "list", "--all", "--session-dir", dir];
  ok(await measureNode(args), "pi-sessions list (warm-up)");
  const rss = [];
  const wall = [];
  for (let i = 0; i < runs; i++) {
    const r = ok(await measureNode(args, { stdout: "capture" }), "pi-sessions list");
    if (!/line of \d+ bytes is longer than/.test(r.stderr))
      throw new Error(`the NUL tail was not reported: ${r.stderr}`);
    rss.push(r.rssMB);
    wall.push(r.wallMs);
    log(`  run ${i + 1}: ${fmtMB(r.rssMB)}, ${fmtMs(r.wallMs)}`);
  }
  const peak = median(rss);
  return {
    rows: [
      {
        metric: "`list` on a 1 GiB NUL-tail session: peak RSS",
        ours: fmtMB(peak),
        pi: "—",
        ratio: "—",
        target: `≤ ${TARGET_RSS_MB} MB`,
        result: peak <= TARGET_RSS_MB ? "pass" : "FAIL",
      },
      { metric: "… wall time", ours: fmtMs(median(wall)), pi: "—", ratio: "—", target: "(info)", result: "" },
    ],
    notes: ["hostile: the store is one sparse file (4 KiB on disk) made in .bench/stores/nul-tail/ on every run."],
  };
}

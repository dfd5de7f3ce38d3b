import { appendFileSync, copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE, REPO, settle } from "../../test/helpers/tmp-store.js";
import { scanStore } from "../scan/scan-store.js";
import type { SessionFile } from "../store/discover.js";
import { openStoreIndex } from "./store-index.js";
import { ScanAhead, scanOnReaders, scanReaderCount, SCAN_ON_READER_BYTES } from "./scan-ahead.js";

afterEach(() => cleanupTmp());

/** The readers' worker as `npm run build` makes it (dist/src): tests run from sources, where there is none. */
const BUILT_WORKER = pathToFileURL(join(REPO, "dist", "src", "index", "text-worker.js"));

/**
 * A copy of the pi fixture store, each session three more times (120 files: past the
 * READERS_FROM_FILES a pass needs), one session grown past SCAN_ON_READER_BYTES (summarized
 * by the scan itself) and one file that is no session (a diagnostic).
 */
function store(): string {
  const dir = copyStore(PI_STORE);
  const files = readdirSync(dir).flatMap((d) => readdirSync(join(dir, d)).map((f) => join(dir, d, f)));
  for (const file of files) for (let i = 1; i <= 3; i++) copyFileSync(file, file.replace(/\.jsonl$/, `-${i}.jsonl`));
  const big = files.sort()[0]!;
  const lines = readFileSync(big, "utf8").trimEnd().split("\n").slice(1).join("\n") + "\n";
  while (readFileSync(big).length <= SCAN_ON_READER_BYTES) appendFileSync(big, lines);
  writeFileSync(join(dir, readdirSync(dir)[0]!, "not-a-session.jsonl"), "not json\n");
  settle(dir);
  return dir;
}

/**
 * `index`'s scan of `dir` into a fresh index (folded as read, as the command does), with its
 * summaries made by `scanAhead` or here; what the index holds after it, the snapshot's
 * generation (a random name per snapshot) taken out, its gzipped rows unzipped and the
 * sizes of the list text's gzip members ("lz": zlib's output for the same text varies by a
 * byte from run to run, on one thread too) left out, with the length in its head they change.
 */
async function indexedScan(dir: string, scanAhead?: (files: SessionFile[]) => ScanAhead | undefined) {
  const index = openStoreIndex(dir, (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
  index.scans.foldAsRead = true;
  try {
    const result = await scanStore(dir, {}, { probe: false, blocking: true, cache: index.scans, scanAhead });
    const files = index.db.q("SELECT * FROM files ORDER BY fid").all();
    const rows = index.db.q("SELECT id, body FROM snapshot ORDER BY id").all() as { id: number; body: unknown }[];
    const bytes = (b: unknown) => Buffer.from(b as string | Uint8Array);
    const gen = /"gen":"(\w+)"/.exec(bytes(rows[0]!.body).toString())![1]!;
    const snapshot = rows.map(({ id, body }) => {
      let b = bytes(body);
      if (b[0] === 0x1f && b[1] === 0x8b) b = gunzipSync(b);
      return [
        id,
        b
          .toString("latin1")
          .split(gen)
          .join("GEN")
          .replace(/"lz":\[[\d,]*\]/, "")
          .replace(/^snapshot (\d+) \d+/, "snapshot $1"),
      ];
    });
    return { sessions: result.sessions, diagnostics: result.diagnostics, files, snapshot };
  } finally {
    index.close();
  }
}

describe("index's scan on the text readers (ScanAhead)", () => {
  it("makes the summaries on the readers and writes the same index as a scan on this thread: rows, snapshot, order", async () => {
    const dir = store();
    const here = await indexedScan(dir);
    const onReaders = scanOnReaders(BUILT_WORKER, 2);
    let ahead: ScanAhead | undefined;
    try {
      const there = await indexedScan(dir, (files) => (ahead = onReaders.scanAhead(files)));
      expect(there).toEqual(here);
    } finally {
      await onReaders.close();
    }
    expect(here.files.length).toBe(121);
    expect(here.diagnostics).toHaveLength(1);
    // Every file but the large one summarized on a reader.
    expect(ahead?.scanned).toBe(121 - 1);
  }, 30_000);

  it("a reader that exits on its files leaves them to this thread: the same index", async () => {
    const dir = store();
    const here = await indexedScan(dir);
    const worker = join(makeTmpDir(), "failing-worker.mjs");
    writeFileSync(
      worker,
      `import { parentPort } from "node:worker_threads";\nparentPort.on("message", (m) => { if (m.scan) process.exit(3); });\n`,
    );
    const onReaders = scanOnReaders(pathToFileURL(worker), 2);
    let ahead: ScanAhead | undefined;
    try {
      expect(await indexedScan(dir, (files) => (ahead = onReaders.scanAhead(files)))).toEqual(here);
    } finally {
      await onReaders.close();
    }
    expect(ahead?.scanned).toBe(0);
  }, 30_000);

  it("starts no reader for a few files, and none on one core", async () => {
    const onReaders = scanOnReaders(BUILT_WORKER, 2);
    const few = [{ path: "/nowhere/a.jsonl", bytes: 1, mtimeMs: 1 }];
    expect(onReaders.scanAhead(few)).toBeUndefined();
    await onReaders.close();
    expect(scanReaderCount(1)).toBe(0);
    expect(scanReaderCount(2)).toBe(2);
    expect(scanReaderCount(16)).toBe(4);
  });
});

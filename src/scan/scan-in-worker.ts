import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { Lineage, SessionSummary } from "../model/types.js";
import { deliverScanEvent, type ScanJob, type WorkerMessage } from "./scan-events.js";
import { scanStore, type ScanHandlers, type ScanOptions, type ScanResult } from "./scan-store.js";
import { indexPathFor, indexWanted } from "../index/index-location.js";
import { openStoreIndex } from "../index/store-index.js";
import { SnapshotHere } from "./snapshot-here.js";
import { NO_LINEAGE, sameLineage } from "../store/lineage.js";

/** The built worker beside this module (absent when running from TypeScript sources). */
export const SCAN_WORKER_URL = new URL("./scan-worker.js", import.meta.url);

export interface WorkerScanOptions extends ScanOptions {
  /** Another worker script (tests); this module's sibling by default. */
  workerUrl?: URL;
  /**
   * The persistent index's file, or false for none. Default: the store's index unless the
   * user turned it off (src/index/index-location.ts).
   */
  index?: string | false;
}

function indexFile(dir: string, options: WorkerScanOptions): string | undefined {
  if (options.index === false) return undefined;
  return options.index ?? (indexWanted() ? indexPathFor(dir) : undefined);
}

/** scanStore on this thread, with the index's scans when there is one (no text indexing here). */
async function scanHere(dir: string, handlers: ScanHandlers, options: WorkerScanOptions): Promise<ScanResult> {
  const path = indexFile(dir, options);
  const index = path ? openStoreIndex(dir, (m) => handlers.onNotice?.(m), { path }) : undefined;
  try {
    // Summaries as such on this thread (kept ones as bytes are for crossing threads).
    return await scanStore(dir, { ...handlers, onKeptRows: undefined }, { ...options, cache: index?.scans });
  } finally {
    index?.close();
  }
}

/**
 * `scanStore` on a worker thread: the same events and result, but discovery, probes and
 * full scans run beside the UI instead of between its frames, so on two cores the first
 * rows are ready while Ink is still loading and keys stay fast during a long scan.
 * Falls back to scanning on this thread when there is no built worker or it can't start.
 */
export function scanInWorker(
  dir: string,
  handlers: ScanHandlers = {},
  options: WorkerScanOptions = {},
): Promise<ScanResult> {
  const url = options.workerUrl ?? SCAN_WORKER_URL;
  if (url.protocol === "file:" && !existsSync(fileURLToPath(url))) return scanHere(dir, handlers, options);
  const job: ScanJob = {
    dir,
    concurrency: options.concurrency,
    probe: options.probe !== false && !!handlers.onProbes,
    firstCwd: options.firstCwd,
    index: indexFile(dir, options),
  };
  let worker: Worker;
  try {
    worker = new Worker(url, { workerData: job });
  } catch {
    return scanHere(dir, handlers, options);
  }
  return new Promise<ScanResult>((resolve, reject) => {
    let settled = false;
    const stop = () => {
      options.signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
    };
    const finish = (fn: () => void, keepRunning = false) => {
      if (settled) return;
      settled = true;
      // With an index the worker goes on updating its text after the result, then ends by
      // itself; an abort still stops it, and it never keeps the program from exiting (an
      // update cut short is rolled back by SQLite and done again next run).
      if (!keepRunning) stop();
      else worker.unref();
      fn();
    };
    const onAbort = () => {
      stop();
      finish(() => resolve({ sessions: [], diagnostics: [], relinked: [] }));
    };
    // The result is made of what was handed over (the worker does not send it twice), with
    // the relinked ones in their place: the kept summaries, and the others by path.
    let kept: SessionSummary[] = [];
    const summaries = new Map<string, SessionSummary>();
    // The index's snapshot, read here while the worker stats every file (once this thread
    // has nothing else to do), and the rows of it the worker said still hold.
    const here = job.index !== undefined ? new SnapshotHere(job.index) : undefined;
    here?.loadWhenIdle(() => settled || !!options.signal?.aborted);
    let keptRows: number[] = [];
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    /** The index is a cache: kept rows that cannot be made into summaries mean a scan without it. */
    const withoutIndex = () => {
      stop();
      settled = true;
      scanInWorker(dir, handlers, { ...options, index: false }).then(resolve, reject);
    };
    worker.on("message", (e: WorkerMessage) => {
      if (options.signal?.aborted || settled) {
        if (settled && (e.kind === "indexing" || e.kind === "notice")) deliverScanEvent(handlers, e);
        return;
      }
      if (e.kind === "kept") {
        const items = here?.rows(e.gen, e.rows);
        if (!items) return withoutIndex();
        keptRows = e.rows;
        kept = items;
        deliverScanEvent(handlers, { kind: "summaries", items: kept });
      } else if (e.kind === "complete") {
        const sessions = kept.slice();
        const relinked = [...e.result.relinked];
        for (const [at, x] of relinkKept(kept, keptRows, e.result.keptLineage)) {
          sessions[at] = x;
          relinked.push(x);
        }
        for (const x of e.result.relinked) summaries.set(x.path, x);
        for (const x of summaries.values()) sessions.push(x);
        here?.drop();
        const result = { sessions, diagnostics: e.result.diagnostics, relinked };
        finish(() => {
          handlers.onComplete?.(result);
          resolve(result);
        }, job.index !== undefined);
      } else if (e.kind === "error") {
        finish(() => reject(Object.assign(new Error(e.message), { code: e.code })));
      } else {
        if (e.kind === "summaries") for (const x of e.items) summaries.set(x.path, x);
        deliverScanEvent(handlers, e);
      }
    });
    worker.on("error", (err) => finish(() => reject(err)));
    worker.on("exit", (code) => {
      options.signal?.removeEventListener("abort", onAbort);
      finish(() => reject(new Error(`the scan worker stopped (exit code ${code})`)));
    });
  });
}

/**
 * The kept summaries whose lineage the worker's resolution changed (a kept row it does not
 * name has none), as new summaries with their place among the kept: what relinked says of
 * summaries the worker handed over.
 */
function relinkKept(
  kept: readonly SessionSummary[],
  rows: readonly number[],
  lineage: ReadonlyArray<[number, Lineage]> = [],
): Array<[at: number, summary: SessionSummary]> {
  const byRow = new Map(lineage);
  const out: Array<[number, SessionSummary]> = [];
  for (let at = 0; at < kept.length; at++) {
    const s = kept[at];
    const l = byRow.get(rows[at]) ?? NO_LINEAGE;
    if (!sameLineage(s.lineage, l)) out.push([at, { ...s, lineage: l }]);
  }
  return out;
}

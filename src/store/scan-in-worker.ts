import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { deliverScanEvent, type ScanEvent, type ScanJob } from "./scan-events.js";
import { scanStore, type ScanHandlers, type ScanOptions, type ScanResult } from "./scan-store.js";

/** The built worker beside this module (absent when running from TypeScript sources). */
export const SCAN_WORKER_URL = new URL("./scan-worker.js", import.meta.url);

export interface WorkerScanOptions extends ScanOptions {
  /** Another worker script (tests); this module's sibling by default. */
  workerUrl?: URL;
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
  if (url.protocol === "file:" && !existsSync(fileURLToPath(url))) return scanStore(dir, handlers, options);
  const job: ScanJob = {
    dir,
    concurrency: options.concurrency,
    probe: options.probe !== false && !!handlers.onProbes,
    firstCwd: options.firstCwd,
  };
  let worker: Worker;
  try {
    worker = new Worker(url, { workerData: job });
  } catch {
    return scanStore(dir, handlers, options);
  }
  return new Promise<ScanResult>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      fn();
    };
    const onAbort = () => finish(() => resolve({ sessions: [], diagnostics: [] }));
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    worker.on("message", (e: ScanEvent) => {
      if (settled) return;
      if (e.kind === "complete") {
        finish(() => {
          handlers.onComplete?.(e.result);
          resolve(e.result);
        });
      } else if (e.kind === "error") {
        finish(() => reject(Object.assign(new Error(e.message), { code: e.code })));
      } else deliverScanEvent(handlers, e);
    });
    worker.on("error", (err) => finish(() => reject(err)));
    worker.on("exit", (code) => finish(() => reject(new Error(`the scan worker stopped (exit code ${code})`))));
  });
}

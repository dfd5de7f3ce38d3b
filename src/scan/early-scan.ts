import { deliverScanEvent, scanEventHandlers, type ScanEvent } from "./scan-events.js";
import { scanInWorker } from "./scan-in-worker.js";
import type { ScanHandlers, ScanOptions, ScanResult } from "./scan-store.js";

export interface EarlyScan {
  /**
   * Resolves once the scan has rows to show (a batch of probes or summaries), has ended,
   * or `maxWaitMs` has passed, whichever comes first.
   */
  ready(maxWaitMs: number): Promise<void>;
  /** Hands over what the scan found so far; those events are not replayed by `scan`. */
  take(): ScanEvent[];
  /**
   * The scan as a `scanStore`-shaped function: the first call gets everything the scan
   * found and nobody took replayed, then the rest live; later calls (a rescan) start afresh.
   */
  scan(dir: string, handlers?: ScanHandlers, options?: ScanOptions): Promise<ScanResult>;
}

/**
 * Starts scanning the store right away, on a worker thread, while the UI loads (Ink and
 * React take most of the launch), so the first frame can already show rows.
 */
export function startEarlyScan(dir: string, firstCwd?: string): EarlyScan {
  const ac = new AbortController();
  const buffered: ScanEvent[] = [];
  let live: ScanHandlers | undefined;
  let hasRows = false;
  let wake: (() => void) | undefined;
  const emit = (e: ScanEvent) => {
    if (e.kind === "probes" || e.kind === "summaries") hasRows = true;
    if (!live) buffered.push(e);
    else deliverScanEvent(live, e);
    if (hasRows) wake?.();
  };
  let ended = false;
  const result = scanInWorker(dir, scanEventHandlers(emit), { signal: ac.signal, firstCwd }).finally(() => {
    ended = true;
    wake?.();
  });
  // Nobody may ever subscribe (the UI failed to start): never an unhandled rejection.
  result.catch(() => undefined);
  let used = false;
  return {
    ready(maxWaitMs) {
      if (hasRows || ended) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => done(), maxWaitMs);
        const done = () => {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        };
        wake = done;
      });
    },
    take() {
      return buffered.splice(0);
    },
    scan(d, handlers = {}, options = {}) {
      if (used || d !== dir) return scanInWorker(d, handlers, options);
      used = true;
      options.signal?.addEventListener("abort", () => ac.abort(), { once: true });
      for (const e of buffered.splice(0)) deliverScanEvent(handlers, e);
      live = handlers;
      return result.then((r) => {
        handlers.onComplete?.(r);
        return r;
      });
    },
  };
}

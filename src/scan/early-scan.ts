import { deliverScanEvent, scanEventHandlers, type ScanEvent } from "./scan-events.js";
import { afterIdle } from "./idle-wait.js";
import { scanInWorker } from "./scan-in-worker.js";
import type { ScanHandlers, ScanOptions, ScanResult } from "./scan-store.js";

export interface EarlyScan {
  /**
   * Resolves once the scan has rows to show (a batch of probes or summaries), has ended,
   * or this thread has waited `maxWaitMs` (idle: time spent working does not count),
   * whichever comes first; rows of every file found (the index
   * kept them all) wait for the end, which is then only lineage away, so that one frame
   * shows the list complete.
   */
  ready(maxWaitMs: number): Promise<void>;
  /**
   * Hands over what the scan found so far, its completion too if it has ended; those events
   * are not replayed by `scan`.
   */
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
  /** Files found, and how many of them have their summary or diagnostic. */
  let total: number | undefined;
  let accounted = 0;
  let wake: (() => void) | undefined;
  // Rows to show, and more to come: the first frame need not wait. (Every file accounted for,
  // it waits for the end, only lineage away, to show the list complete in one frame.)
  const rowsSoFar = () => hasRows && !(total !== undefined && accounted >= total);
  const emit = (e: ScanEvent) => {
    if (e.kind === "probes" || e.kind === "summaries") hasRows = true;
    if (e.kind === "discovered") total = e.total;
    else if (e.kind === "summaries") accounted += e.items.length;
    else if (e.kind === "diagnostic" && total !== undefined) accounted++;
    if (!live) buffered.push(e);
    else deliverScanEvent(live, e);
    if (rowsSoFar()) wake?.();
  };
  let ended: ScanResult | false | undefined;
  const result = scanInWorker(dir, scanEventHandlers(emit), { signal: ac.signal, firstCwd }).then(
    (r) => {
      ended = r;
      wake?.();
      return r;
    },
    (err: unknown) => {
      ended = false;
      wake?.();
      throw err;
    },
  );
  // Nobody may ever subscribe (the UI failed to start): never an unhandled rejection.
  result.catch(() => undefined);
  let used = false;
  /** The completion went with take(): the first scan() only says it again, with nothing relinked. */
  let completionTaken = false;
  return {
    ready(maxWaitMs) {
      if (ended !== undefined || rowsSoFar()) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const cancel = afterIdle(maxWaitMs, () => done());
        const done = () => {
          cancel();
          wake = undefined;
          resolve();
        };
        wake = done;
      });
    },
    take() {
      const events = buffered.splice(0);
      if (ended && !used && !completionTaken) {
        completionTaken = true;
        // As useStoreScan ends a scan: the sessions lineage changed, then the completion.
        events.push({ kind: "summaries", items: ended.relinked }, { kind: "complete", result: ended });
      }
      return events;
    },
    scan(d, handlers = {}, options = {}) {
      if (used || d !== dir) return scanInWorker(d, handlers, options);
      used = true;
      options.signal?.addEventListener("abort", () => ac.abort(), { once: true });
      for (const e of buffered.splice(0)) deliverScanEvent(handlers, e);
      live = handlers;
      return result.then((r) => {
        const out = completionTaken ? { ...r, relinked: [] } : r;
        handlers.onComplete?.(out);
        return out;
      });
    },
  };
}

import { type Dispatch, useEffect } from "react";
import type { AppAction } from "../../src/browser/app/appReducer.js";
import { type ScanEvent, scanEventHandlers } from "../../src/scan/scan-events.js";
import type { ScanHandlers, ScanOptions, ScanResult } from "../../src/scan/scan-store.js";

/** How the browser scans the store (the worker scan; tests pass fakes). */
export type ScanFn = (dir: string, handlers?: ScanHandlers, options?: ScanOptions) => Promise<ScanResult>;

/**
 * Runs the store scan and feeds its events to the state as the one scan action
 * ({ type: "scan", events }). Events are coalesced so the app re-renders at most every
 * `throttleMs` however fast files are read; the first ones go out at once so rows appear
 * with the first frame possible.
 */
export function useStoreScan(storeDir: string, scan: ScanFn, dispatch: Dispatch<AppAction>, throttleMs = 50): void {
  useEffect(() => {
    const ac = new AbortController();
    let events: ScanEvent[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    let lastFlush = 0;

    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      lastFlush = Date.now();
      if (!events.length) return;
      const batch = events;
      events = [];
      dispatch({ type: "scan", events: batch });
    };
    const schedule = () => {
      if (ac.signal.aborted || timer) return;
      const wait = throttleMs - (Date.now() - lastFlush);
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    };
    const emit = (e: ScanEvent) => {
      if (ac.signal.aborted) return;
      events.push(e);
      schedule();
    };

    scan(storeDir, scanEventHandlers(emit), { signal: ac.signal }).then(
      (result) => {
        if (ac.signal.aborted) return;
        // The final list has lineage resolved: the sessions it changed replace what the events
        // said (a scan that says nothing of which hands over all of its list).
        events.push({ kind: "summaries", items: result.relinked ?? result.sessions }, { kind: "complete", result });
        flush();
      },
      (err: unknown) => {
        if (ac.signal.aborted) return;
        events.push({ kind: "error", message: err instanceof Error ? err.message : String(err) });
        flush();
      },
    );
    return () => {
      ac.abort();
      if (timer) clearTimeout(timer);
    };
  }, [storeDir, scan, dispatch, throttleMs]);
}

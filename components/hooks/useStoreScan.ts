import { type Dispatch, useEffect } from "react";
import type { Diagnostic, SessionProbe, SessionSummary } from "../../src/model/types.js";
import type { AppAction } from "../../src/browser/app/appReducer.js";
import type { ScanHandlers, ScanOptions, ScanResult } from "../../src/store/scan-store.js";

/** How the browser scans the store (the worker scan; tests pass fakes). */
export type ScanFn = (dir: string, handlers?: ScanHandlers, options?: ScanOptions) => Promise<ScanResult>;

/**
 * Runs the store scan and feeds the reducer. Batches are coalesced so the app
 * re-renders at most every `throttleMs` however fast files are read; the first
 * batch goes out at once so rows appear with the first frame possible.
 */
export function useStoreScan(storeDir: string, scan: ScanFn, dispatch: Dispatch<AppAction>, throttleMs = 50): void {
  useEffect(() => {
    const ac = new AbortController();
    let probes: SessionProbe[] = [];
    let summaries: SessionSummary[] = [];
    let diagnostics: Diagnostic[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    let lastFlush = 0;

    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      lastFlush = Date.now();
      if (!probes.length && !summaries.length && !diagnostics.length) return;
      const batch: AppAction = { type: "scan.batch", probes, summaries, diagnostics };
      probes = [];
      summaries = [];
      diagnostics = [];
      dispatch(batch);
    };
    const schedule = () => {
      if (ac.signal.aborted || timer) return;
      const wait = throttleMs - (Date.now() - lastFlush);
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    };
    const add = <T>(into: T[], items: readonly T[]) => {
      for (const x of items) into.push(x);
      schedule();
    };

    scan(
      storeDir,
      {
        onDiscovered: (total) => !ac.signal.aborted && dispatch({ type: "scan.discovered", total }),
        onProbes: (p) => add(probes, p),
        onSummaries: (s) => add(summaries, s),
        onDiagnostic: (d) => add(diagnostics, [d]),
      },
      { signal: ac.signal },
    ).then(
      (result) => {
        if (ac.signal.aborted) return;
        // The final list has lineage resolved; it replaces what the batches said.
        summaries = summaries.concat(result.sessions);
        flush();
        dispatch({ type: "scan.done" });
      },
      (err: unknown) => {
        if (ac.signal.aborted) return;
        flush();
        dispatch({ type: "scan.done", error: err instanceof Error ? err.message : String(err) });
      },
    );
    return () => {
      ac.abort();
      if (timer) clearTimeout(timer);
    };
  }, [storeDir, scan, dispatch, throttleMs]);
}

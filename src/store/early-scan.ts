import type { Diagnostic, SessionProbe, SessionSummary } from "../model/types.js";
import { scanStore, type ScanHandlers, type ScanOptions, type ScanResult } from "./scan-store.js";

type Event =
  | { k: "discovered"; total: number }
  | { k: "probes"; items: SessionProbe[] }
  | { k: "summaries"; items: SessionSummary[] }
  | { k: "diagnostic"; d: Diagnostic };

export interface EarlyScan {
  /**
   * The scan as a `scanStore`-shaped function: the first call gets everything the scan
   * already found replayed, then the rest live; later calls (a rescan) start afresh.
   */
  scan(dir: string, handlers?: ScanHandlers, options?: ScanOptions): Promise<ScanResult>;
}

/**
 * Starts scanning the store right away, before the UI has loaded (importing Ink and React
 * takes a third of a second), and hands the events to the UI when it subscribes.
 */
export function startEarlyScan(dir: string): EarlyScan {
  const ac = new AbortController();
  const buffered: Event[] = [];
  let live: ScanHandlers | undefined;
  const emit = (e: Event) => {
    if (!live) buffered.push(e);
    else deliver(live, e);
  };
  const result = scanStore(
    dir,
    {
      onDiscovered: (total) => emit({ k: "discovered", total }),
      onProbes: (items) => emit({ k: "probes", items }),
      onSummaries: (items) => emit({ k: "summaries", items }),
      onDiagnostic: (d) => emit({ k: "diagnostic", d }),
    },
    { signal: ac.signal },
  );
  // Nobody may ever subscribe (the UI failed to start): never an unhandled rejection.
  result.catch(() => undefined);
  let used = false;
  return {
    scan(d, handlers = {}, options = {}) {
      if (used || d !== dir) return scanStore(d, handlers, options);
      used = true;
      options.signal?.addEventListener("abort", () => ac.abort(), { once: true });
      for (const e of buffered.splice(0)) deliver(handlers, e);
      live = handlers;
      return result.then((r) => {
        handlers.onComplete?.(r);
        return r;
      });
    },
  };
}

function deliver(h: ScanHandlers, e: Event): void {
  switch (e.k) {
    case "discovered":
      return h.onDiscovered?.(e.total);
    case "probes":
      return h.onProbes?.(e.items);
    case "summaries":
      return h.onSummaries?.(e.items);
    case "diagnostic":
      return h.onDiagnostic?.(e.d);
  }
}

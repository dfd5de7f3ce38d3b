import type { Diagnostic, SessionProbe, SessionSummary } from "../model/types.js";
import type { ScanHandlers, ScanResult } from "./scan-store.js";

/** One scan, as handed to a scan worker. */
export interface ScanJob {
  dir: string;
  concurrency?: number;
  probe?: boolean;
  /** The folder the browser starts in: its sessions are read first (ScanOptions.firstCwd). */
  firstCwd?: string;
  /** The persistent index to use and bring up to date (its file), if any. */
  index?: string;
}

/** A scan's progress as data: what a worker posts and what the early scan buffers. */
export type ScanEvent =
  | { kind: "discovered"; total: number }
  | { kind: "probes"; items: SessionProbe[] }
  | { kind: "summaries"; items: SessionSummary[] }
  | { kind: "diagnostic"; d: Diagnostic }
  | { kind: "notice"; message: string }
  /** The index's text is being brought up to date (after "complete"): `done` of `total` files in this pass. */
  | { kind: "indexing"; pass: "text" | "tools"; done: number; total: number }
  | { kind: "complete"; result: ScanResult }
  | { kind: "error"; message: string; code?: string };

/**
 * What a scan worker posts: the events, and the kept summaries as rows of the index's
 * snapshot (of generation `gen`), which scanInWorker reads itself and turns into a
 * "summaries" event.
 */
export type WorkerMessage = ScanEvent | { kind: "kept"; rows: number[]; gen: string };

/** Handlers that turn a scan's progress back into events (the inverse of deliverScanEvent). */
export function scanEventHandlers(emit: (e: ScanEvent) => void): ScanHandlers {
  return {
    onDiscovered: (total) => emit({ kind: "discovered", total }),
    onProbes: (items) => emit({ kind: "probes", items }),
    onSummaries: (items) => emit({ kind: "summaries", items }),
    onDiagnostic: (d) => emit({ kind: "diagnostic", d }),
    onNotice: (message) => emit({ kind: "notice", message }),
    onIndexing: (pass, done, total) => emit({ kind: "indexing", pass, done, total }),
  };
}

/** Hands one progress event to the handlers (completion and errors are the caller's). */
export function deliverScanEvent(h: ScanHandlers, e: ScanEvent): void {
  switch (e.kind) {
    case "discovered":
      return h.onDiscovered?.(e.total);
    case "probes":
      return h.onProbes?.(e.items);
    case "summaries":
      return h.onSummaries?.(e.items);
    case "diagnostic":
      return h.onDiagnostic?.(e.d);
    case "notice":
      return h.onNotice?.(e.message);
    case "indexing":
      return h.onIndexing?.(e.pass, e.done, e.total);
  }
}

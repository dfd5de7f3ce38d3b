import type { Diagnostic, SessionProbe, SessionSummary } from "../../model/types.js";
import type { ScanEvent } from "../../store/scan-events.js";
import { type AppState, update } from "./appReducer.js";

/**
 * The state with what an early scan found before the UI mounted already in it, so the
 * very first frame shows rows instead of "scanning…" followed by a second frame. Scan
 * actions ask for no effects, so only the state is kept.
 */
export function seedScan(state: AppState, events: readonly ScanEvent[] | undefined): AppState {
  if (!events?.length) return state;
  const probes: SessionProbe[] = [];
  const summaries: SessionSummary[] = [];
  const diagnostics: Diagnostic[] = [];
  let s = state;
  for (const e of events) {
    if (e.kind === "discovered") s = update(s, { type: "scan.discovered", total: e.total })[0];
    else if (e.kind === "probes") probes.push(...e.items);
    else if (e.kind === "summaries") summaries.push(...e.items);
    else if (e.kind === "diagnostic") diagnostics.push(e.d);
  }
  if (probes.length || summaries.length || diagnostics.length)
    s = update(s, { type: "scan.batch", probes, summaries, diagnostics })[0];
  return s;
}

import type { Diagnostic, SessionProbe, SessionSummary } from "../../model/types.js";
import type { ScanEvent } from "../../scan/scan-events.js";
import { inScope } from "../list/derive.js";
import { refresh } from "../list/list.js";
import { mergeBatch } from "../list/sessions.js";
import { say } from "../core/status.js";
import type { AppState } from "./appState.js";

/*
 * The one scan stream: whatever found the sessions (the first screen's probe, the early
 * scan, the worker's scan, and next the persistent index), its events reach the state as
 * one action, { type: "scan", events }, folded here. The seed of the first frame is the
 * same fold over the events found before the UI mounted.
 */

/** Until the user picks, the scope is "this folder" if it has sessions, else "all". */
function settleScope(s: AppState): AppState {
  if (s.scopeSettled) return s;
  for (const x of s.sessions.values()) {
    if (inScope(x, "cwd", s.launchCwd, s.storeDir)) return { ...s, scope: "cwd", scopeSettled: true };
  }
  const probedAll = s.scan.discovered !== null && s.scan.probed + s.scan.diagnostics >= s.scan.discovered;
  if (s.scan.done || probedAll) return { ...s, scope: "all", scopeSettled: true };
  return s;
}

/** The state after a run of scan events, in order; sessions are merged once for the run. */
export function foldScan(state: AppState, events: readonly ScanEvent[]): AppState {
  if (events.length === 0) return state;
  const probes: SessionProbe[] = [];
  const summaries: SessionSummary[] = [];
  const diagnostics: Diagnostic[] = [];
  let scan = state.scan;
  let notice: string | undefined;
  for (const e of events) {
    switch (e.kind) {
      case "discovered":
        scan = { ...scan, discovered: e.total };
        break;
      case "probes":
        probes.push(...e.items);
        break;
      case "summaries":
        summaries.push(...e.items);
        break;
      case "diagnostic":
        diagnostics.push(e.d);
        break;
      case "complete":
        // The final list (lineage resolved) came as summaries before this.
        scan = { ...scan, done: true };
        break;
      case "error":
        scan = { ...scan, done: true, error: e.message };
        break;
      case "notice":
        notice = e.message;
        break;
      case "indexing":
        scan = { ...scan, indexing: e.done < e.total ? { pass: e.pass, done: e.done, total: e.total } : undefined };
        break;
    }
  }
  const found = probes.length + summaries.length + diagnostics.length > 0;
  // Nothing new (the completion said again: the early scan handed it to the first frame
  // already): the same state, so no render and no frame (a frame of the whole screen costs
  // tens of ms at launch, when the main thread has the most to do).
  const o = state.scan;
  const same =
    scan.done === o.done && scan.discovered === o.discovered && scan.error === o.error && scan.indexing === o.indexing;
  if (!found && notice === undefined && same) return state;
  const sessions = found ? mergeBatch(state.sessions, probes, summaries, diagnostics) : state.sessions;
  scan = {
    ...scan,
    probed: scan.probed + probes.length,
    scanned: scan.scanned + summaries.length,
    diagnostics: scan.diagnostics + diagnostics.length,
    skipped: diagnostics.length > 0 ? [...scan.skipped, ...diagnostics] : scan.skipped,
  };
  let s = settleScope({ ...state, sessions, scan });
  // The index is a cache: a problem with it is said once and changes nothing else.
  if (notice !== undefined) s = say(s, notice, "note");
  return found || scan.done !== state.scan.done ? refresh(s) : s;
}

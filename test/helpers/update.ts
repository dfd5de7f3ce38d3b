import type { Diagnostic, SessionProbe, SessionSummary } from "../../src/model/types.js";
import type { ScanEvent } from "../../src/scan/scan-events.js";
import { type AppAction, type AppState, update } from "../../src/browser/app/appReducer.js";
import type { Effect } from "../../src/browser/app/effects.js";

/** A state with every effect its actions asked for so far, in order: for reducer tests. */
export type Traced = AppState & { effects: readonly Effect[] };

/** Folds `actions` through the app's `update`, collecting the effects beside the state (never in it). */
export function reduce(s: AppState, ...actions: AppAction[]): Traced {
  const { effects: before = [], ...start } = s as Partial<Traced> & AppState;
  let state = start as AppState;
  const effects: Effect[] = [...before];
  for (const a of actions) {
    const [next, asked] = update(state, a);
    state = next;
    effects.push(...asked);
  }
  return { ...state, effects };
}

/** The one scan action, as a scan's events reach the state. */
export const scanned = (...events: ScanEvent[]): AppAction => ({ type: "scan", events });
export const scanSummaries = (items: SessionSummary[]): AppAction => scanned({ kind: "summaries", items });
export const scanProbes = (items: SessionProbe[]): AppAction => scanned({ kind: "probes", items });
export const scanDiagnostics = (ds: Diagnostic[]): AppAction =>
  scanned(...ds.map((d) => ({ kind: "diagnostic" as const, d })));
export const scanDiscovered = (total: number): AppAction => scanned({ kind: "discovered", total });
export const scanDone = (error?: string): AppAction =>
  scanned(
    error === undefined
      ? { kind: "complete", result: { sessions: [], diagnostics: [], relinked: [] } }
      : { kind: "error", message: error },
  );

import type { ScanEvent } from "../../scan/scan-events.js";
import type { AppState } from "./appState.js";
import { reselect } from "./reselect.js";
import { foldScan } from "./scanFold.js";

/**
 * The state with what was found before the UI mounted (the first screen's probe, the early
 * scan) already in it, so the very first frame shows rows: the scan stream's one fold.
 */
export function seedScan(state: AppState, events: readonly ScanEvent[] | undefined): AppState {
  return events?.length ? reselect(foldScan(state, events)) : state;
}

import type { ScanHandlers, ScanOptions, ScanResult } from "../../src/store/scan-store.js";
import type { PreviewLoader } from "../preview/types.js";

export type ScanFn = (dir: string, handlers?: ScanHandlers, options?: ScanOptions) => Promise<ScanResult>;

/** What the browser needs from the outside world; tests pass fakes. */
export interface BrowserDeps {
  scan: ScanFn;
  loadPreview: PreviewLoader;
  cwdExists(dir: string): boolean;
}

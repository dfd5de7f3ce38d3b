import { openStoreIndex, type StoreIndex } from "../../index/store-index.js";
import { output } from "./output.js";
import { collectGarbage } from "./collect-garbage.js";
import { scanStore, type ScanOptions, type ScanResult } from "../../scan/scan-store.js";
import { sanitizeLine } from "../../text/sanitize.js";
import type { SessionSummary } from "../../model/types.js";
import type { CliIO } from "./io.js";

/**
 * The store's sessions for a command, through the persistent index when it can be used:
 * files it knows unchanged are not read. A problem with the index is one line on stderr
 * (io under -q says nothing: quietIO), never a failure. The index is returned open for the caller to use and close.
 */
export async function scanWithIndex(
  storeDir: string,
  io: CliIO,
  given: {
    index?: StoreIndex | null;
    found?: ScanOptions["found"];
    /**
     * What to hold of each summary read instead of it (keeping path, parentSessionPath and
     * lineage): the index folds each into its snapshot as it is read, and listPieces gives
     * its `list --json` text. Summaries it could not fold are held whole.
     */
    compact?: (s: SessionSummary) => object;
  } = {},
): Promise<ScanResult & { index?: StoreIndex }> {
  const index = given.index === undefined ? openIndex(storeDir, io) : (given.index ?? undefined);
  try {
    const scans = index?.scans;
    const { compact } = given;
    let hold: ScanOptions["hold"];
    if (scans && compact) {
      scans.foldAsRead = true;
      scans.collectGarbage = collectGarbage;
      hold = (s) => scans.holdFolded(s, compact) as SessionSummary;
    }
    const result = await scanStore(storeDir, {}, { probe: false, cache: scans, found: given.found, hold });
    return { ...result, index };
  } catch (err) {
    index?.close();
    throw err;
  }
}

/** The store's index for a command, or undefined (its problem one line on the io's stderr). */
export function openIndex(storeDir: string, io: CliIO): StoreIndex | undefined {
  const note = (m: string) => {
    output(io).note(`pi-sessions: ${sanitizeLine(m)}\n`);
  };
  return openStoreIndex(storeDir, note, { env: io.env });
}

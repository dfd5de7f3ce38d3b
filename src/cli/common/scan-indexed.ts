import { openStoreIndex, type StoreIndex } from "../../index/store-index.js";
import { scanStore, type ScanResult } from "../../scan/scan-store.js";
import { sanitizeLine } from "../../text/sanitize.js";
import type { CliIO } from "./io.js";

/**
 * The store's sessions for a command, through the persistent index when it can be used:
 * files it knows unchanged are not read. A problem with the index is one line on stderr
 * (unless quiet), never a failure. The index is returned open for the caller to use and close.
 */
export async function scanWithIndex(
  storeDir: string,
  io: CliIO,
  quiet = false,
): Promise<ScanResult & { index?: StoreIndex }> {
  const note = (m: string) => {
    if (!quiet) io.stderr(`pi-sessions: ${sanitizeLine(m)}\n`);
  };
  const index = openStoreIndex(storeDir, note, { env: io.env });
  try {
    const result = await scanStore(storeDir, {}, { probe: false, cache: index?.scans });
    return { ...result, index };
  } catch (err) {
    index?.close();
    throw err;
  }
}

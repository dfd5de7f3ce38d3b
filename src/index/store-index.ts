import { openIndex, type IndexDb } from "./index-db.js";
import { indexPathFor, indexWanted } from "./index-location.js";
import { IndexedScans } from "./summary-cache.js";

/** A store's persistent index, open: the database and the scan cache over it. */
export interface StoreIndex {
  db: IndexDb;
  scans: IndexedScans;
  close(): void;
}

/**
 * Opens the index of the store at `storeDir` (at `path` when given), or returns undefined
 * when it is turned off (PI_SESSIONS_INDEX=0), has nowhere to live, or cannot be used
 * (then `onProblem` gets one line saying why, and the caller goes on without it).
 */
export function openStoreIndex(
  storeDir: string,
  onProblem: (message: string) => void,
  options: { env?: NodeJS.ProcessEnv; path?: string } = {},
): StoreIndex | undefined {
  const env = options.env ?? process.env;
  if (!options.path && !indexWanted(env)) return undefined;
  const path = options.path ?? indexPathFor(storeDir, env);
  if (!path) return undefined;
  const opened = openIndex(path);
  if ("problem" in opened) {
    onProblem(opened.problem);
    return undefined;
  }
  const { db } = opened;
  return { db, scans: new IndexedScans(db, onProblem), close: () => db.close() };
}

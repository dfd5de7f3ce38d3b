import type { StoreIndex } from "../../index/store-index.js";
import { discoverFiles } from "../../store/discover.js";
import { AnswerCache, storeFingerprint, type Answer } from "./answer-cache.js";
import type { CliIO } from "./io.js";
import { openIndex } from "./scan-indexed.js";

/** What a command that reads the whole store finds before it reads anything. */
export interface KeptLookup<T> {
  /** The store's index, open (the caller closes it), or undefined (off, or not usable). */
  index?: StoreIndex;
  /** The store as discovery saw it: hand it to scanWithIndex rather than discovering again. */
  found: Awaited<ReturnType<typeof discoverFiles>>;
  /** What was kept for `key` for this very store, as `use` made it of the kept answer. */
  kept?: T;
  /** Keeps this run's answer for the next run: only when nothing usable was kept and the last run saw the same store. */
  keep?: (a: Answer) => void;
}

/**
 * The store discovered, its index opened, and the answer kept for `key` for a store with
 * the same fingerprint (answer-cache.ts), made usable by `use` (undefined: not usable,
 * the command works it out again, and keeps it if the store has settled).
 */
export async function lookupKept<T>(
  storeDir: string,
  io: CliIO,
  key: string,
  use: (a: Answer, found: KeptLookup<T>["found"]) => T | undefined,
): Promise<KeptLookup<T>> {
  const index = openIndex(storeDir, io);
  let found: KeptLookup<T>["found"];
  try {
    found = await discoverFiles(storeDir);
  } catch (err) {
    index?.close();
    throw err;
  }
  if (!index) return { found };
  const answers = new AnswerCache(index.db);
  const fingerprint = storeFingerprint(found);
  const hit = answers.get(key, fingerprint);
  const kept = hit && use(hit, found);
  if (kept !== undefined) return { index, found, kept };
  const keep = answers.settled(key, fingerprint) ? (a: Answer) => answers.put(key, fingerprint, a) : undefined;
  return { index, found, keep };
}

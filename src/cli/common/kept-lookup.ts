import { indexPathFor, indexWanted } from "../../index/index-location.js";
import type { StoreIndex } from "../../index/store-index.js";
import { discoverFiles } from "../../store/discover.js";
import { AnswerCache, storeFingerprint, type Answer } from "./answer-cache.js";
import type { CliIO } from "./io.js";
import { openIndex } from "./scan-indexed.js";

/** What a command that reads the whole store finds before it reads anything. */
export interface KeptLookup<T> {
  /** The store as discovery saw it: hand it to scanWithIndex rather than discovering again. */
  found: Awaited<ReturnType<typeof discoverFiles>>;
  /** What was kept for `key` for this very store, as `use` made it of the kept answer. */
  kept?: T;
  /** Keeps this run's answer for the next run: only when nothing usable was kept and the last run saw the same store. */
  keep?: (a: Answer) => void;
  /**
   * The store's index, opened on the first call (the caller closes it), or undefined (off,
   * or not usable: its problem one line on stderr). A kept answer is read without it.
   */
  index(): StoreIndex | undefined;
  /** Other answers kept beside it for this very store (none when the index is off). */
  other?: { get(key: string): Answer | undefined; put(key: string, a: Answer): void };
  /** The answer kept last for `key`, of another store (the store before it changed), when none was kept for this one. */
  earlier?: Answer;
}

/**
 * The store discovered and the answer kept for `key` for a store with the same fingerprint
 * (answer-cache.ts), made usable by `use` (undefined: not usable, the command works it out
 * again, and keeps it if the store has settled). SQLite is opened only when needed: a
 * relaunch on an unchanged store is served from a file.
 */
export async function lookupKept<T>(
  storeDir: string,
  io: CliIO,
  key: string,
  use: (a: Answer, found: KeptLookup<T>["found"]) => T | undefined,
): Promise<KeptLookup<T>> {
  let opened: { index?: StoreIndex } | undefined;
  const index = () => (opened ??= { index: openIndex(storeDir, io) }).index;
  const found = await discoverFiles(storeDir, { yielding: false });
  const path = indexWanted(io.env) ? indexPathFor(storeDir, io.env) : undefined;
  if (!path) return { found, index };
  const fingerprint = storeFingerprint(found);
  const answers = new AnswerCache(path);
  const other = {
    get: (k: string) => answers.get(k, fingerprint),
    put: (k: string, a: Answer) => answers.put(k, fingerprint, a),
  };
  // Read once: the answer for this store, or the one of the store before it changed (earlier).
  const last = answers.latest(key);
  const hit = last?.fingerprint === fingerprint ? last : undefined;
  const kept = hit && use(hit, found);
  if (kept !== undefined) return { found, kept, index, other };
  // Kept beside an index that can be used (one that cannot has nowhere to keep them).
  if (!index()) return { found, index };
  const keep = answers.settled(key, fingerprint) ? (a: Answer) => answers.put(key, fingerprint, a) : undefined;
  return { found, keep, index, other, earlier: last };
}

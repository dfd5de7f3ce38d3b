import { indexPathFor, indexWanted } from "../../index/index-location.js";
import type { Diagnostic } from "../../model/types.js";
import type { StoreIndex } from "../../index/store-index.js";
import { discoverFiles } from "../../store/discover.js";
import { storeFingerprint, storeIsRacy } from "../../store/store-fingerprint.js";
import { AnswerCache, type Answer, type AnswerToKeep } from "./answer-cache.js";
import type { KeptFile } from "./kept-file.js";
import type { CliIO } from "./io.js";
import { openIndex } from "./scan-indexed.js";

/** What a command that reads the whole store finds before it reads anything. */
export interface KeptLookup<T> {
  /** The store as discovery saw it: hand it to scanWithIndex rather than discovering again. */
  found: Awaited<ReturnType<typeof discoverFiles>>;
  /** What was kept for `key` for this very store, as `use` made it of the kept answer. */
  kept?: T;
  /** Keeps this run's answer for the next run: only when nothing usable was kept and the last run saw the same store. */
  keep?: (a: AnswerToKeep) => void;
  /**
   * The store's index, opened on the first call (the caller closes it), or undefined (off,
   * or not usable: its problem one line on stderr). A kept answer is read without it.
   */
  index(): StoreIndex | undefined;
  /** Other answers kept beside it for this very store (none when the index is off). */
  other?: {
    get(key: string): Answer | undefined;
    put(key: string, a: Answer): void;
    /** Whether one is kept for this store, by its header alone (the answer is not read). */
    has(key: string): boolean;
  };
  /** The answer kept last for `key`, of another store (the store before it changed), when none was kept for this one and it was asked for. */
  earlier?: Answer;
}

/** The store discovered, with what its kept answers are looked up by (keptFor). */
export interface KeptStore {
  found: KeptLookup<unknown>["found"];
  index(): StoreIndex | undefined;
  /** Undefined when the index is off: nothing is kept. */
  answers?: { cache: AnswerCache; fingerprint: string };
}

/** Discovers the store once, for one or more keptFor lookups. SQLite is opened only when asked for. */
export async function discoverKept(storeDir: string, io: CliIO): Promise<KeptStore> {
  let opened: { index?: StoreIndex } | undefined;
  const index = () => (opened ??= { index: openIndex(storeDir, io) }).index;
  const discoveredFrom = Date.now();
  const found = await discoverFiles(storeDir, { yielding: false, fromInside: true });
  const path = indexWanted(io.env) ? indexPathFor(storeDir, io.env) : undefined;
  // A file changed a moment ago (within a tick of the file system's clock): this run's
  // answer may be older than the files' identities say; it is neither served nor kept.
  if (!path || storeIsRacy(found, discoveredFrom)) return { found, index };
  return { found, index, answers: { cache: new AnswerCache(path), fingerprint: storeFingerprint(found) } };
}

/**
 * The answer kept for `key` for a store with the same fingerprint (answer-cache.ts), made
 * usable by `use` (undefined: not usable, the command works it out again, and keeps it if
 * the store has settled). A relaunch on an unchanged store is served from a file.
 */
export function keptFor<T>(
  store: KeptStore,
  key: string,
  use: (a: Answer, found: KeptLookup<T>["found"]) => T | undefined,
  { earlier = false, part = false }: { earlier?: boolean; part?: boolean } = {},
): KeptLookup<T> {
  const { found, index, answers } = store;
  if (!answers) return { found, index };
  const { cache, fingerprint } = answers;
  const other = {
    get: (k: string) => cache.get(k, fingerprint),
    put: (k: string, a: Answer) => cache.put(k, fingerprint, a),
    has: (k: string) => cache.fingerprintOf(k) === fingerprint,
  };
  // Read once: the answer for this store, or (when asked for) the one of the store before
  // it changed; another store's answer is otherwise not read at all (list's is 10 MB).
  // `part`: of an answer kept with a first part, only that part is read (the rest when asked).
  const read = (k: string) => (part ? cache.latestPart(k) : cache.latest(k));
  const last = earlier || cache.fingerprintOf(key) === fingerprint ? read(key) : undefined;
  const hit = last?.fingerprint === fingerprint ? last : undefined;
  const kept = hit && use(hit, found);
  if (kept !== undefined) return { found, kept, index, other };
  // Kept beside an index that can be used (one that cannot has nowhere to keep them).
  if (!index()) return { found, index };
  const keep = cache.settled(key, fingerprint) ? (a: AnswerToKeep) => cache.put(key, fingerprint, a) : undefined;
  return { found, keep, index, other, earlier: last };
}

/**
 * keptFor for an answer written out as it was kept (`list`'s): handed over as a file to read
 * a chunk at a time rather than read whole (kept-file.ts: KeptFile), made usable by `use`
 * (undefined: not usable, the file let go).
 */
export function keptFileFor<T = KeptFile>(
  store: KeptStore,
  key: string,
  use: (f: KeptFile) => T | undefined = (f) => f as T,
): KeptLookup<T> {
  const { found, index, answers } = store;
  if (!answers) return { found, index };
  const { cache, fingerprint } = answers;
  const file = cache.file(key, fingerprint);
  const kept = file && usable(file, use);
  if (kept !== undefined) return { found, kept, index };
  file?.close();
  if (!index()) return { found, index };
  const keep = cache.settled(key, fingerprint) ? (a: AnswerToKeep) => cache.put(key, fingerprint, a) : undefined;
  return { found, keep, index };
}

/** `use(file)`, or undefined when it fails: a read that fails (EIO) before any byte is out is a miss. */
function usable<T>(file: KeptFile, use: (f: KeptFile) => T | undefined): T | undefined {
  try {
    return use(file);
  } catch {
    return undefined;
  }
}

/** discoverKept and keptFor in one: a command that asks about one key. */
export async function lookupKept<T>(
  storeDir: string,
  io: CliIO,
  key: string,
  use: (a: Answer, found: KeptLookup<T>["found"]) => T | undefined,
): Promise<KeptLookup<T>> {
  return keptFor(await discoverKept(storeDir, io), key, use);
}

/**
 * Whether a file could not be read while the store was read though discovery met no problem
 * with it. Nothing is kept of such a run: the failure may pass (EMFILE, EIO) with nothing else
 * changed, and the fingerprint would not show it. What discovery could not read (a link to
 * nothing, a folder it could not list: only discovery lists folders) is in the fingerprint:
 * the run that finds it fixed misses, so an answer saying it was skipped may be kept.
 */
export function unreadableSinceDiscovery(
  diagnostics: readonly Diagnostic[],
  found: { diagnostics: readonly Diagnostic[] },
): boolean {
  const known = new Set(found.diagnostics.filter((d) => d.kind === "unreadable").map((d) => d.path));
  return diagnostics.some((d) => d.kind === "unreadable" && !known.has(d.path));
}

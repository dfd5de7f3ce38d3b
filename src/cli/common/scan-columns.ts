import type { Diagnostic, SessionSummary } from "../../model/types.js";
import type { StoreIndex } from "../../index/store-index.js";
import { scanStore, type ScanOptions } from "../../scan/scan-store.js";
import { discoverFiles } from "../../store/discover.js";
import type { CliIO } from "./io.js";
import { openIndex, scanWithIndex } from "./scan-indexed.js";
import { collectGarbage } from "./collect-garbage.js";

/** What the text `list` shows, sorts, scopes and warns by: a few of a summary's fields. */
export const LIST_KEYS = [
  "path",
  "id",
  "cwd",
  "name",
  "firstMessage",
  "created",
  "modified",
  "messageCount",
  "bytes",
  "mtimeMs",
  "warnings",
] as const;
export type ListRow = Pick<SessionSummary, (typeof LIST_KEYS)[number]>;

/**
 * How a key's stored value is made the summary's again: dates were kept as epoch
 * milliseconds; a missing key stays missing (undefined). One function per key, found once
 * for a column rather than for each of 50,000 rows.
 */
export function reviverOf(key: keyof SessionSummary): (v: unknown) => unknown {
  if (key === "created" || key === "modified") return reviveDate;
  if (key === "warnings") return reviveWarnings;
  return reviveValue;
}
const reviveDate = (v: unknown) => new Date(typeof v === "number" || typeof v === "string" ? v : NaN);
const reviveWarnings = (v: unknown) => v ?? [];
const reviveValue = (v: unknown) => v ?? undefined;

/**
 * The store's sessions with these fields alone, for a command that needs no more. The
 * sessions the index keeps unchanged are made from those columns of its snapshot alone (at
 * 50,000 sessions the whole summaries, with their usage by day and model, were most of a
 * relaunch's time and memory); the others are read as any scan reads them. Without a usable
 * snapshot: the whole summaries.
 */
export async function scanColumns<K extends keyof SessionSummary>(
  storeDir: string,
  io: CliIO,
  keys: readonly K[],
  /** The index the caller opened (it closes it) and the store it discovered (kept-lookup.ts). */
  given?: { index: StoreIndex | undefined; found: NonNullable<ScanOptions["found"]> },
  /** A long-lived process (serve) whose requests run side by side: discovery yields, by full path. */
  shared = false,
): Promise<{ sessions: Array<Pick<SessionSummary, K>>; diagnostics: Diagnostic[] }> {
  const index = given ? given.index : openIndex(storeDir, io);
  try {
    if (index) {
      const rows = await fromColumns(storeDir, index, keys, given?.found, shared);
      if (rows) return rows;
    }
    const { sessions, diagnostics } = await scanWithIndex(storeDir, io, {
      index: index ?? null,
      found: given?.found ?? (await discover(storeDir, shared)),
    });
    return { sessions, diagnostics };
  } finally {
    if (!given) index?.close();
  }
}

/** The scan with the snapshot's rows kept as rows, made from its columns; undefined when they cannot be. */
async function fromColumns<K extends keyof SessionSummary>(
  storeDir: string,
  index: StoreIndex,
  keys: readonly K[],
  found: ScanOptions["found"],
  shared: boolean,
): Promise<{ sessions: Array<Pick<SessionSummary, K>>; diagnostics: Diagnostic[] } | undefined> {
  let kept: number[] | undefined;
  // Discovered for the scan alone, unless given (no name holds it after: 50,000 files'
  // records kept alive while the columns are made cost 60 MB more at the peak in some runs).
  // What is read is held as rows of these fields (and what lineage needs, if asked for) at once, and a
  // first scan folds each summary into the snapshot as it reads it: at 50,000 sessions
  // read, the whole summaries held to the end were most of the command's memory.
  // Lineage is resolved only when asked for (the text list and stats show none).
  const lineage = (keys as readonly string[]).includes("lineage");
  const held = [
    ...new Set<keyof SessionSummary>([
      ...keys,
      "path",
      ...(lineage ? (["parentSessionPath", "lineage"] as const) : []),
    ]),
  ];
  index.scans.foldAsRead = true;
  index.scans.collectGarbage = collectGarbage;
  const options: ScanOptions = {
    probe: false,
    blocking: true,
    cache: index.scans,
    hold: (s) => pick(s, held) as SessionSummary,
    lineage,
  };
  const result = await scanStore(
    storeDir,
    { onKeptRows: (rows) => (kept = rows) },
    { ...options, found: found ?? (await discover(storeDir, shared)) },
  );
  const cols = kept && index.scans.keptColumns(keys);
  if (kept && !cols) return undefined;
  // The summaries read are made rows of these fields, and the cache lets go of them: at
  // 50,000 sessions read, the whole ones were held while the table was made.
  index.scans.release();
  const read = result.sessions.map((s) => pick(s, keys));
  if (!kept || !cols) return { sessions: read, diagnostics: result.diagnostics };
  // Each key's column and reviver found once, not for each of 50,000 rows.
  const made = keys.map((k) => ({ k, col: cols[k], revive: reviverOf(k) }));
  const sessions = new Array<Pick<SessionSummary, K>>(kept.length);
  for (let j = 0; j < kept.length; j++) {
    const i = kept[j];
    const row: Record<string, unknown> = {};
    for (const { k, col, revive } of made) {
      const v = revive(col?.[i]);
      if (v !== undefined) row[k] = v;
    }
    sessions[j] = row as Pick<SessionSummary, K>;
  }
  for (const s of read) sessions.push(s);
  return { sessions, diagnostics: result.diagnostics };
}

/**
 * The store's files as a command line discovers them: nothing else runs on its thread, so
 * no yielding, and each folder's files stat'ed from inside it (discover.ts; at 50,000 files
 * a tenth of a second less than by full path).
 */
export const discover = (storeDir: string, shared: boolean) =>
  discoverFiles(storeDir, shared ? {} : { yielding: false, fromInside: true });

/** A summary's fields `keys` alone (a key it lacks stays missing). */
export function pick<K extends keyof SessionSummary>(s: SessionSummary, keys: readonly K[]): Pick<SessionSummary, K> {
  const row: Partial<Pick<SessionSummary, K>> = {};
  for (const k of keys) if (s[k] !== undefined) row[k] = s[k];
  return row as Pick<SessionSummary, K>;
}

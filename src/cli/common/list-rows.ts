import type { Diagnostic, SessionSummary } from "../../model/types.js";
import type { StoreIndex } from "../../index/store-index.js";
import { scanStore, type ScanOptions } from "../../scan/scan-store.js";
import type { CliIO } from "./io.js";
import { openIndex, scanWithIndex } from "./scan-indexed.js";

/** What the text `list` shows, sorts, scopes and warns by: a few of a summary's fields. */
export type ListRow = Pick<
  SessionSummary,
  | "path"
  | "id"
  | "cwd"
  | "name"
  | "firstMessage"
  | "created"
  | "modified"
  | "messageCount"
  | "bytes"
  | "mtimeMs"
  | "warnings"
>;

const KEYS = [
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

/**
 * The store's sessions as the text `list` needs them. The sessions the index keeps unchanged
 * are made from those few columns of its snapshot alone (at 50,000 sessions the whole
 * summaries, with their usage by day and model, were most of a relaunch's time and memory);
 * the others are read as any scan reads them. Without a usable snapshot: the whole summaries.
 */
export async function listRows(
  storeDir: string,
  io: CliIO,
): Promise<{ sessions: ListRow[]; diagnostics: Diagnostic[] }> {
  const index = openIndex(storeDir, io);
  try {
    if (index) {
      const rows = await fromColumns(storeDir, index);
      if (rows) return rows;
    }
    const { sessions, diagnostics } = await scanWithIndex(storeDir, io, { index: index ?? null });
    return { sessions, diagnostics };
  } finally {
    index?.close();
  }
}

/** The scan with the snapshot's rows kept as rows, made into ListRows from its columns; undefined when it cannot be. */
async function fromColumns(
  storeDir: string,
  index: StoreIndex,
): Promise<{ sessions: ListRow[]; diagnostics: Diagnostic[] } | undefined> {
  let kept: number[] | undefined;
  const options: ScanOptions = { probe: false, blocking: true, cache: index.scans };
  const result = await scanStore(storeDir, { onKeptRows: (rows) => (kept = rows) }, options);
  if (!kept) return result;
  const cols = index.scans.keptColumns(KEYS);
  if (!cols) return undefined;
  const at = (k: (typeof KEYS)[number], i: number): unknown => cols[k]?.[i] ?? undefined;
  const date = (v: unknown) => new Date(typeof v === "number" || typeof v === "string" ? v : NaN);
  const sessions: ListRow[] = kept.map((i) => ({
    path: at("path", i) as string,
    id: at("id", i) as string,
    cwd: at("cwd", i) as string,
    name: at("name", i) as string | undefined,
    firstMessage: at("firstMessage", i) as string,
    created: date(at("created", i)),
    modified: date(at("modified", i)),
    messageCount: at("messageCount", i) as number,
    bytes: at("bytes", i) as number,
    mtimeMs: at("mtimeMs", i) as number,
    warnings: (at("warnings", i) as string[] | undefined) ?? [],
  }));
  for (const s of result.sessions) sessions.push(s);
  return { sessions, diagnostics: result.diagnostics };
}

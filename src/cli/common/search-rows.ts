import type { SessionSummary } from "../../model/types.js";

/*
 * What `search` reads of each session (ranking, scope, output), kept in the index beside
 * the store's fingerprint (answer-cache.ts) so a search of an unchanged store makes ten
 * thousand small rows instead of ten thousand whole summaries. Laid out by column: JSON
 * arrays of plain values parse several times faster than an object per row.
 */

/** The fields of a summary that search uses (matchSession's, cwdScope's, the output's, the index's target). */
export type SearchRow = Pick<
  SessionSummary,
  | "path"
  | "id"
  | "name"
  | "firstMessage"
  | "cwd"
  | "models"
  | "labelCount"
  | "labels"
  | "modified"
  | "bytes"
  | "mtimeMs"
>;

/** Written into the value: rows of another layout are not read (the command scans instead). */
const LAYOUT = 2;

interface Columns {
  v: number;
  path: string[];
  id: string[];
  /** null: no name (undefined in the summary). */
  name: Array<string | null>;
  firstMessage: string[];
  cwd: string[];
  models: string[][];
  labelCount: number[];
  /** null: no labels kept (undefined in the summary). */
  labels: Array<string[] | null>;
  /** Milliseconds; null for an invalid date (JSON has no NaN). */
  modified: Array<number | null>;
  bytes: number[];
  mtimeMs: number[];
}

export function encodeSearchRows(sessions: readonly SearchRow[]): Uint8Array {
  const c: Columns = {
    v: LAYOUT,
    path: sessions.map((s) => s.path),
    id: sessions.map((s) => s.id),
    name: sessions.map((s) => s.name ?? null),
    firstMessage: sessions.map((s) => s.firstMessage),
    cwd: sessions.map((s) => s.cwd),
    models: sessions.map((s) => s.models),
    labelCount: sessions.map((s) => s.labelCount),
    labels: sessions.map((s) => s.labels ?? null),
    modified: sessions.map((s) => {
      const t = s.modified.getTime();
      return Number.isNaN(t) ? null : t;
    }),
    bytes: sessions.map((s) => s.bytes),
    mtimeMs: sessions.map((s) => s.mtimeMs),
  };
  // Every character past ASCII escaped (JSON reads \uXXXX back as the same one): the text is
  // then its own bytes, read back as Latin-1 without decoding UTF-8, and parsed faster.
  return Buffer.from(
    JSON.stringify(c).replace(NON_ASCII, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`),
    "latin1",
  );
}

const NON_ASCII = /[\u0080-\uffff]/g;

/** The rows, or undefined when the value is not rows of this layout (the caller scans instead). */
export function decodeSearchRows(value: Uint8Array): SearchRow[] | undefined {
  let c: Columns;
  try {
    c = JSON.parse(Buffer.from(value.buffer, value.byteOffset, value.length).toString("latin1")) as Columns;
  } catch {
    return undefined;
  }
  if (!c || c.v !== LAYOUT || !Array.isArray(c.path)) return undefined;
  const n = c.path.length;
  const cols = [c.id, c.name, c.firstMessage, c.cwd, c.models, c.labelCount, c.labels, c.modified, c.bytes, c.mtimeMs];
  if (!cols.every((col) => Array.isArray(col) && col.length === n)) return undefined;
  const rows = new Array<SearchRow>(n);
  for (let i = 0; i < n; i++) {
    const row: SearchRow = {
      path: c.path[i],
      id: c.id[i],
      firstMessage: c.firstMessage[i],
      cwd: c.cwd[i],
      models: c.models[i],
      labelCount: c.labelCount[i],
      modified: new Date(c.modified[i] ?? NaN),
      bytes: c.bytes[i],
      mtimeMs: c.mtimeMs[i],
    };
    // Absent stays absent, as in the summary (a name of "" is still a name).
    if (c.name[i] !== null) row.name = c.name[i]!;
    if (c.labels[i] !== null) row.labels = c.labels[i]!;
    rows[i] = row;
  }
  return rows;
}

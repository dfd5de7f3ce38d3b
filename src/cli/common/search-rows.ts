import type { SessionSummary } from "../../model/types.js";
import { asciiJson, asciiText } from "../../text/ascii-json.js";

/*
 * What `search` reads of each session (ranking, scope, output), kept in the index beside
 * the store's fingerprint (answer-cache.ts) so a search of an unchanged store makes ten
 * thousand small rows instead of ten thousand whole summaries. Laid out by column: JSON
 * arrays of plain values parse several times faster than an object per row. A row's path
 * is its file's place in discovery's list (the fingerprint is of that very list, so the
 * same paths come in the same order), and a folder or a model list, shared by many rows,
 * is written once: half the text to parse.
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
const LAYOUT = 3;

interface Columns {
  v: number;
  /** Per row: its file's place in the discovered paths, or -1 (then `path` has it). */
  file: number[];
  /** Per row: its path when not among the discovered ones, else null. */
  path: Array<string | null>;
  id: string[];
  /** null: no name (undefined in the summary). */
  name: Array<string | null>;
  firstMessage: string[];
  /** Per row: its folder's place in `cwds`. */
  cwd: number[];
  cwds: string[];
  /** Per row: its model list's place in `modelLists`. */
  models: number[];
  modelLists: string[][];
  labelCount: number[];
  /** null: no labels kept (undefined in the summary). */
  labels: Array<string[] | null>;
  /** Milliseconds; null for an invalid date (JSON has no NaN). */
  modified: Array<number | null>;
  bytes: number[];
  mtimeMs: number[];
}

/** Each distinct value once, and every row's place in that list. */
function dictionary<T>(values: readonly T[], keyOf: (v: T) => string): { at: number[]; list: T[] } {
  const seen = new Map<string, number>();
  const list: T[] = [];
  const at = values.map((v) => {
    const k = keyOf(v);
    let i = seen.get(k);
    if (i === undefined) {
      seen.set(k, (i = list.length));
      list.push(v);
    }
    return i;
  });
  return { at, list };
}

/** `paths`: the discovered files' paths, in discovery's order (what the fingerprint is made of). */
export function encodeSearchRows(sessions: readonly SearchRow[], paths: readonly string[]): Uint8Array {
  const place = new Map(paths.map((p, i) => [p, i]));
  const file = sessions.map((s) => place.get(s.path) ?? -1);
  const cwd = dictionary(
    sessions.map((s) => s.cwd),
    (c) => c,
  );
  const models = dictionary(
    sessions.map((s) => s.models),
    (m) => JSON.stringify(m),
  );
  const c: Columns = {
    v: LAYOUT,
    file,
    path: sessions.map((s, i) => (file[i] < 0 ? s.path : null)),
    id: sessions.map((s) => s.id),
    name: sessions.map((s) => s.name ?? null),
    firstMessage: sessions.map((s) => s.firstMessage),
    cwd: cwd.at,
    cwds: cwd.list,
    models: models.at,
    modelLists: models.list,
    labelCount: sessions.map((s) => s.labelCount),
    labels: sessions.map((s) => s.labels ?? null),
    modified: sessions.map((s) => {
      const t = s.modified.getTime();
      return Number.isNaN(t) ? null : t;
    }),
    bytes: sessions.map((s) => s.bytes),
    mtimeMs: sessions.map((s) => s.mtimeMs),
  };
  // As ASCII (src/text/ascii-json.ts): read back without decoding UTF-8.
  return Buffer.from(asciiJson(c), "latin1");
}

/**
 * The rows, or undefined when the value is not rows of this layout or does not fit `paths`
 * (the caller scans instead). `paths` as given to encodeSearchRows: the same list.
 */
export function decodeSearchRows(value: Uint8Array, paths: readonly string[]): SearchRow[] | undefined {
  let c: Columns;
  try {
    c = JSON.parse(asciiText(value)) as Columns;
  } catch {
    return undefined;
  }
  if (!c || c.v !== LAYOUT || !Array.isArray(c.file) || !Array.isArray(c.cwds) || !Array.isArray(c.modelLists))
    return undefined;
  const n = c.file.length;
  const cols = [c.path, c.id, c.name, c.firstMessage, c.cwd, c.models, c.labelCount, c.labels, c.modified, c.bytes];
  if (![...cols, c.mtimeMs].every((col) => Array.isArray(col) && col.length === n)) return undefined;
  const rows = new Array<SearchRow>(n);
  for (let i = 0; i < n; i++) {
    const f = c.file[i];
    const path = f >= 0 ? paths[f] : c.path[i];
    const cwd = c.cwds[c.cwd[i]];
    const models = c.modelLists[c.models[i]];
    if (typeof path !== "string" || typeof cwd !== "string" || !Array.isArray(models)) return undefined;
    const row: SearchRow = {
      path,
      id: c.id[i],
      firstMessage: c.firstMessage[i],
      cwd,
      // Shared by the rows with the same list: search only reads it.
      models,
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

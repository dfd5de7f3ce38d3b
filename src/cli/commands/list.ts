import { resolve } from "node:path";
import { sessionTitle } from "../../model/session-title.js";
import type { Diagnostic, SessionSummary } from "../../model/types.js";
import { allSessionsTieBreak, SORTS, sortSessions, type SortKey, type TieBreak } from "../../search/sort.js";
import { formatAge, formatBytes, groupDigits } from "../../text/format.js";
import { sanitizeLine, truncateToWidth } from "../../text/sanitize.js";
import { displayRules } from "../../text/width.js";
import { usageError } from "../common/errors.js";
import { quietIO, stdoutHoldsNone, type CliIO } from "../common/io.js";
import { freeBytes } from "../../store/free-bytes.js";
import { output } from "../common/output.js";
import { scanWithIndex } from "../common/scan-indexed.js";
import { collectGarbage } from "../common/collect-garbage.js";
import { scanJsonRows, type JsonRows } from "../common/scan-json-rows.js";
import { discoverKept, keptFileFor, unreadableSinceDiscovery } from "../common/kept-lookup.js";
import { AGE_TITLE, KeptTableWriter, keptTable } from "../common/kept-list-table.js";
import { writeSummariesJson } from "../common/json.js";
import { LIST_KEYS, scanColumns, type ListRow } from "../common/scan-columns.js";
import { parse, STORE_OPTION, QUIET_OPTION } from "../common/parse.js";
import { storeFromArgs } from "../common/store-arg.js";
import { alignedRows, alignRows, type AlignedRows } from "../common/table.js";
import { cwdScope } from "../../store/scope.js";

const LIST_SORTS = SORTS.filter((s) => s !== "threaded");

/** Writes a kept answer, then closes its file, whether or not the writing got through. */
const thenClose = (f: { close(): void }, write: () => Promise<void>) => async (): Promise<void> => {
  try {
    await write();
  } finally {
    f.close();
  }
};

/** What the table reads of a row. */
type TableRow = Omit<ListRow, "created">;
/** A text list's row: `created` only when the sort compares it (a date for each of 50,000 rows costs). */
type TextRow = TableRow & Partial<Pick<ListRow, "created">>;
const LIST_KEYS_BUT_CREATED = LIST_KEYS.filter(
  (k): k is Exclude<(typeof LIST_KEYS)[number], "created"> => k !== "created",
);

/** What `list --json` always needs of a summary besides its text: its path, warnings and lineage (and what resolves it). */
const JSON_ROW_KEYS = ["path", "warnings", "parentSessionPath", "lineage", "modified", "mtimeMs"] as const;
/** And what each sort compares beyond those (sort.ts). */
const SORT_KEYS: Record<SortKey, ReadonlyArray<keyof SessionSummary>> = {
  recent: [],
  threaded: [],
  created: ["created"],
  name: ["name", "firstMessage"],
  messages: ["messageCount"],
  size: ["bytes"],
};

/**
 * The fields `list --json` holds of each summary read, its text kept by the index: at
 * 50,000 sessions a whole summary is ~1.5 KB of heap, a row of these a few hundred bytes.
 */
function jsonRowKeys(sort: SortKey, all: boolean): Array<keyof SessionSummary> {
  return [...JSON_ROW_KEYS, ...SORT_KEYS[sort], ...(all ? [] : (["cwd"] as const))];
}

/** list's options (a host's list takes the same: src/remote/cli-remote.ts). */
export const LIST_OPTIONS = {
  ...STORE_OPTION,
  all: { type: "boolean", short: "a" },
  cwd: { type: "string" },
  json: { type: "boolean" },
  sort: { type: "string" },
  skipped: { type: "boolean" },
  ...QUIET_OPTION,
} as const;

export async function listCommand(args: string[], given: CliIO): Promise<number> {
  const { values, positionals } = parse(args, LIST_OPTIONS);
  const io = quietIO(given, values.quiet);
  const out = output(io);
  if (positionals.length) throw usageError(`list takes no arguments (got '${positionals[0]}')`);
  const sort = (values.sort ?? "recent") as SortKey;
  if (!(LIST_SORTS as string[]).includes(sort)) throw usageError(`--sort must be one of ${LIST_SORTS.join(", ")}`);
  if (values.all && values.cwd) throw usageError("--all and --cwd can't be combined");
  const store = storeFromArgs(values["session-dir"], io);
  if (values.skipped) return listSkipped(store.dir, io, !!values.json);
  const cwd = resolve(io.cwd, values.cwd ?? ".");
  // A store unchanged since the last same question: --json's answer as it was, the text
  // list's lines as they were with their ages made again by the clock (kept-list-table.ts).
  // The same answer with or without -q: what it said on stderr is kept, and -q's io mutes it.
  const scope = values.all ? "" : cwd;
  const known = await discoverKept(store.dir, io);
  // --json's answer is written as it was kept, read a chunk at a time (48 MB at 50,000 sessions).
  const k = values.json
    ? keptFileFor(known, JSON.stringify(["list --json", scope, sort]), (f) => {
        return { err: f.err, write: thenClose(f, () => out.jsonChunks(f.chunks())) };
      })
    : keptFileFor(known, textListKey(scope, sort, io.columns), (f) => {
        const table = keptTable(f, Date.now(), io.columns);
        if (!table) return undefined;
        // A megabyte at a time, each written before the next is made.
        return { err: f.err, write: thenClose(f, () => out.cleanChunks(table.chunks())) };
      });
  if (k.kept) {
    if (k.kept.err) out.note(k.kept.err);
    await k.kept.write();
    return 0;
  }
  const found = k.found;
  // This run's to close (below, once read), or undefined: the index off or not usable.
  const index = k.index();
  /** Keeps what this run writes as the answer for the next same question. */
  let keep = k.keep;
  const rowKeys = jsonRowKeys(sort, !!values.all);
  // Both need a few fields of each summary: made from the index's columns (--json's text out of its list text).
  let json: JsonRows | undefined;
  let scanned: { sessions: readonly TextRow[]; diagnostics: Diagnostic[] };
  // The index is this run's to close (closed below once read): either scan may throw.
  try {
    // Rows newest first are near the order the snapshot holds them in (its list text is read a few members at a time).
    const jumpy = sort !== "recent";
    if (values.json) json = await scanJsonRows(store.dir, io, rowKeys, { index: index ?? null, found, jumpy });
    // `created` only for the sort that compares it (TextRow).
    scanned =
      json ??
      (await scanColumns(store.dir, io, sort === "created" ? LIST_KEYS : LIST_KEYS_BUT_CREATED, { index, found }));
  } catch (err) {
    index?.close();
    throw err;
  }
  const { sessions, diagnostics } = scanned;
  // Kept for the next run (--json or text) only when nothing failed to be read that discovery
  // could read: such a failure may pass with the fingerprint the same (unreadableSinceDiscovery).
  if (unreadableSinceDiscovery(diagnostics, found)) keep = undefined;
  const inScope = cwdScope(store.dir, cwd);
  const shown = values.all
    ? sortRows(sessions, sort, allSessionsTieBreak(store.dir, sessions))
    : sortRows(sessions.filter(inScope), sort, "name");
  // Paths and warnings can carry text from the files (names, ids): sanitized like all file text.
  // What goes to stderr is kept with a --json answer (-q's io says none of it: the listing
  // alone for scripts; the exit status still says if anything failed).
  let err = "";
  const note = (m: string) => {
    err += m;
    out.note(m);
  };
  for (const d of diagnostics) note(`pi-sessions: skipped ${sanitizeLine(d.path)}: ${sanitizeLine(d.reason)}\n`);
  for (const s of shown) {
    if (s.warnings.length)
      note(
        `pi-sessions: ${sanitizeLine(s.path)}: ${s.warnings.length} problem line(s), e.g. ${sanitizeLine(s.warnings[0])}\n`,
      );
  }
  if (values.json) {
    // The elements the index keeps (of unchanged files) are written as kept: the same text.
    try {
      // What is written is kept too, as the answer for the next same question, in its pieces.
      // Each piece is a buffer of its own (writeSummariesJson makes one per write): kept as it is.
      const written: Uint8Array[] = [];
      const bytes = (b: Uint8Array) => {
        if (keep) written.push(b);
        out.jsonBytes(b);
        // Made for this write alone (nothing keeps it): let go of now, not at V8's next
        // collection (at 50,000 sessions 48 of them, a megabyte each, waited for one).
        if (!keep && stdoutHoldsNone(io)) freeBytes(b);
      };
      const text = (t: string) => bytes(Buffer.from(t));
      // With --json the rows are whole summaries, or rows of jsonRowKeys whose text the index keeps.
      writeSummariesJson(shown as SessionSummary[], json!.pieces, text, bytes);
      keep?.({ out: written, err });
    } finally {
      index?.close();
    }
    return 0;
  }
  index?.close();
  // What the scan left dead (the snapshot's inflated columns, discovery's records) is let go
  // before the table is made: at 50,000 sessions V8 had not collected it, and the table's
  // strings came on top (peak 275-284 -> 225-234 MB, the same CPU).
  collectGarbage();
  if (!shown.length) {
    note(
      values.all ? `no sessions in ${sanitizeLine(store.dir)}\n` : `no sessions for ${sanitizeLine(cwd)} (try --all)\n`,
    );
    keep?.({ out: new Uint8Array(0), err });
    return 0;
  }
  // Prefixes unique across the whole store: `show` resolves them against every session.
  const now = Date.now();
  const table = alignedTable(
    shown,
    !!values.all,
    now,
    io.columns,
    sessions.map((s) => s.id),
  );
  // What is written is kept too: each line but its AGE cell, and the times of the ages.
  const kept =
    keep &&
    new KeptTableWriter(
      Float64Array.from(shown, (s) => s.modified.getTime()),
      now,
    );
  // Written a chunk of lines at a time, each line made as its chunk is: the whole table as
  // one string (10 MB at 50,000 sessions) and its sanitized copy were held at once, then its
  // 50,000 lines all made before the first was written.
  // Its cells are sanitized already (alignedTable): the writer only checks them.
  let chunk: string[] = [];
  for (let i = 0; i < table.length; i++) {
    chunk.push(table.line(i));
    if (chunk.length < WRITE_LINES && i < table.length - 1) continue;
    const written = out.cleanText(`${chunk.join("\n")}\n`);
    kept?.add(written);
    chunk = [];
  }
  const bytes = kept?.finish();
  if (bytes) keep?.({ out: bytes, err });
  return 0;
}

/**
 * `list --skipped`: every file of the store that is not listed, and why (the browser's
 * "N files skipped"): the kind and the path, then the reason, sanitized; `--json` exact.
 */
async function listSkipped(storeDir: string, io: CliIO, json: boolean): Promise<number> {
  const { diagnostics, index } = await scanWithIndex(storeDir, io);
  index?.close();
  const out = output(io);
  const skipped = [...diagnostics].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (json) {
    out.json(skipped.map((d) => ({ path: d.path, kind: d.kind, reason: d.reason })));
    return 0;
  }
  if (!skipped.length) {
    out.note(`no files skipped in ${storeDir}\n`);
    return 0;
  }
  const rows = skipped.map((d) => [d.kind, `${sanitizeLine(d.path)}: ${sanitizeLine(d.reason)}`]);
  out.text(alignRows(rows, { columns: io.columns }).join("\n") + "\n");
  return 0;
}

/**
 * sortSessions for a text list's rows: of its sorts only the created sort reads `created`,
 * and the rows hold it then (listCommand asks for it with that sort alone).
 */
function sortRows<T extends TextRow>(rows: readonly T[], sort: SortKey, tieBreak: TieBreak): T[] {
  return sortSessions(rows as ReadonlyArray<T & Pick<ListRow, "created">>, sort, tieBreak);
}

/**
 * What a text list's bytes depend on besides the files: the scope (`--all`: ""), the sort,
 * the terminal's width (a pipe: none), and the Unicode rules a cell's display width is
 * measured by (Intl.Segmenter's graphemes, ICU's data: a Node upgrade under the same
 * build may align or cut a row otherwise); nothing else of the environment.
 */
export function textListKey(scope: string, sort: SortKey, columns: number | undefined): string {
  return JSON.stringify(["list text", scope, sort, columns ?? null, displayRules()]);
}

/**
 * Lines of the table given to the writer at once. Few: a chunk's lines, alive across the
 * young generation's collections, made V8 grow it again to its 32 MB after the collection
 * before the table (at 50,000 sessions 4,096 lines a write peaked at 222 MB, 128 at 202).
 */
const WRITE_LINES = 128;

/** On a terminal the CWD column is at most this wide (its title still gets the rest of the row). */
const TERMINAL_CWD_COLUMNS = 40;

/**
 * An aligned table. On a terminal (`columns`) each row fits its width: the cwd is cut to
 * 40 columns and the title, which comes last so wide characters can't misalign it, to
 * what is left. In a pipe nothing is cut, as `ls -l` and `git branch -v` do: whole cwds
 * and titles for grep and awk (a title is at most a screen row's text, sessionTitle).
 */
export function formatTable(...args: Parameters<typeof formatTableLines>): string {
  return `${formatTableLines(...args).join("\n")}\n`;
}

/** formatTable's lines, without their line ends. */
export function formatTableLines(...args: Parameters<typeof alignedTable>): string[] {
  const table = alignedTable(...args);
  return Array.from({ length: table.length }, (_, i) => table.line(i));
}

/** formatTable's lines, each made when asked for, once and in order (list writes them a chunk at a time). */
export function alignedTable(
  sessions: readonly TableRow[],
  withCwd: boolean,
  now = Date.now(),
  columns?: number,
  allIds: string[] = sessions.map((s) => s.id),
  /** Rows of several machines (list --host): each row's host, in a HOST column first. */
  hostOf?: (s: TableRow) => string,
): AlignedRows {
  const idLen = uniquePrefixLength(allIds);
  // Made once per folder: 50,000 sessions share a few hundred.
  const cwdCells = new Map<string, string>();
  const cwd = (s: TableRow) => {
    let cell = cwdCells.get(s.cwd);
    if (cell === undefined) {
      cell = columns === undefined ? sanitizeLine(s.cwd) : truncateToWidth(sanitizeLine(s.cwd), TERMINAL_CWD_COLUMNS);
      cwdCells.set(s.cwd, cell);
    }
    return cell;
  };
  const head = [...(hostOf ? ["HOST"] : []), AGE_TITLE, "MSGS", "SIZE", "ID", ...(withCwd ? ["CWD"] : []), "TITLE"];
  const rows = new Array<string[]>(sessions.length + 1);
  rows[0] = head;
  for (let i = 0; i < sessions.length; i++) {
    const s = sessions[i];
    const row: string[] = [];
    if (hostOf) row.push(sanitizeLine(hostOf(s)));
    row.push(formatAge(s.modified, now), groupDigits(s.messageCount), formatBytes(s.bytes));
    row.push(sanitizeLine(s.id.slice(0, idLen)));
    if (withCwd) row.push(cwd(s));
    row.push(sessionTitle(s));
    rows[i + 1] = row;
  }
  const right = hostOf ? new Set([2, 3]) : new Set([1, 2]);
  // Each line is asked for once, in order (list's chunks, formatTableLines): its row let go as it is made.
  return alignedRows(rows, { right, columns, once: true });
}

/**
 * The shortest prefix length (at least 8) that tells these ids apart: UUIDv7 ids share
 * their leading timestamp, so a fixed 8 characters would all look alike. It is one more than
 * the longest prefix two different ids share, which two neighbours in sorted order show.
 */
export function uniquePrefixLength(ids: readonly string[], min = 8): number {
  return Math.max(min, sharedByUuids(ids) ?? sharedBySorting(ids));
}

/** One more than the longest prefix two different ids share (0: none), every id sorted. */
function sharedBySorting(ids: readonly string[]): number {
  const sorted = [...ids].sort();
  let len = 0;
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1];
    const b = sorted[i];
    let k = 0;
    while (k < a.length && k < b.length && a[k] === b[k]) k++;
    if (a !== b) len = Math.max(len, k + 1);
  }
  return len;
}

/**
 * sharedBySorting for ids that mostly start as pi's do (lowercase UUIDs: 8 hex digits, a
 * dash, 4 hex digits): their first 12 digits as a number, sorted as numbers; ids whose 12
 * digits are the same (made in the same millisecond), and the others, compared as strings.
 * Undefined: too few are UUIDs. A generated store's 50,000 ids, once in a fresh process as
 * `list` does it, at load 7.7–8.3 on two cores: 55–102 ms of CPU sorted as strings, 28–37 ms so.
 */
function sharedByUuids(ids: readonly string[]): number | undefined {
  const keys = new Float64Array(ids.length);
  const others: string[] = [];
  let n = 0;
  for (const id of ids) {
    const k = uuidKey(id);
    if (k >= 0) keys[n++] = k;
    else if (others.push(id) > 64) return undefined;
  }
  const sorted = keys.subarray(0, n).sort();
  let len = 0;
  let same: Set<number> | undefined;
  for (let i = 1; i < n; i++) {
    if (sorted[i] === sorted[i - 1]) (same ??= new Set()).add(sorted[i]);
    else len = Math.max(len, sharedChars(sorted[i - 1], sorted[i]) + 1);
  }
  if (same) len = Math.max(len, sharedBySorting(ids.filter((id) => same.has(uuidKey(id)))));
  if (!others.length) return len;
  len = Math.max(len, sharedBySorting(others));
  // An id of another form shares with a UUID at most its characters a UUID could have there.
  if (n) for (const id of others) len = Math.max(len, longestUuidPrefix(id, sorted) + 1);
  return len;
}

/** How many leading characters `id` (of another form) shares with the UUID of these keys that shares most. */
function longestUuidPrefix(id: string, sorted: Float64Array): number {
  // Its characters a UUID could have there: hex digits, the dash after 8.
  const digits: number[] = [];
  let j = 0;
  for (; j < 13 && j < id.length; j++) {
    const c = id.charCodeAt(j);
    if (j === 8) {
      if (c !== 0x2d) break;
      continue;
    }
    const d = hexDigit(c);
    if (d < 0) break;
    digits.push(d);
  }
  // Its first k characters begin a UUID when a key lies between theirs padded with 0s and with fs.
  for (let k = j; k > 0; k--) {
    const m = k > 8 ? k - 1 : k;
    let low = 0;
    for (let i = 0; i < m; i++) low = low * 16 + digits[i];
    const span = 16 ** (12 - m);
    low *= span;
    if (anyBetween(sorted, low, low + span - 1)) return k;
  }
  return 0;
}

/** Whether a sorted array holds a value from low to high. */
function anyBetween(sorted: Float64Array, low: number, high: number): boolean {
  let a = 0;
  let b = sorted.length;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (sorted[mid] < low) a = mid + 1;
    else b = mid;
  }
  return a < sorted.length && sorted[a] <= high;
}

const hexDigit = (c: number) => (c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1);

/** The 48-bit number an id's first 12 hex digits are (characters 0–7 and 9–12), or -1. */
function uuidKey(id: string): number {
  if (id.length < 13 || id.charCodeAt(8) !== 0x2d) return -1;
  let k = 0;
  for (let i = 0; i < 13; i++) {
    if (i === 8) continue;
    const d = hexDigit(id.charCodeAt(i));
    if (d < 0) return -1;
    k = k * 16 + d;
  }
  return k;
}

/** How many leading characters the ids of two different uuidKeys share (their equal leading digits; the dash after 8). */
function sharedChars(a: number, b: number): number {
  const TWO_24 = 0x1000000;
  const hiA = Math.floor(a / TWO_24);
  const hiB = Math.floor(b / TWO_24);
  // Leading equal bits of two 24-bit halves, as whole hex digits.
  const digits =
    hiA !== hiB
      ? (Math.clz32(hiA ^ hiB) - 8) >> 2
      : 6 + ((Math.clz32((a - hiA * TWO_24) ^ (b - hiB * TWO_24)) - 8) >> 2);
  return digits < 8 ? digits : digits + 1;
}

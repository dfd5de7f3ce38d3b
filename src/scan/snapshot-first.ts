import { existsSync } from "node:fs";
import { checkIdentity } from "../store/file-identity.js";
import { checkFile } from "../index/cache-folder.js";
import { indexFoldersProblem } from "../index/index-db.js";
import { loadSqlite } from "../index/load-sqlite.js";
import { NEWEST_ID, readNewest, ROW_KEYS, type NewestRecord } from "../index/newest-rows.js";
import { LAYOUT } from "../index/snapshot-codec.js";
import { asciiText } from "../text/ascii-json.js";
import { reviveSummary } from "../index/summary-codec.js";
import type { SessionSummary } from "../model/types.js";
import { lendSnapshot, openSnapshot } from "./snapshot-here.js";

/** A row's summary with what no list row shows left empty (the usage of 50,000 rows is the costliest column to parse). */
function rowOnly(row: Record<string, unknown>): SessionSummary {
  const s = reviveSummary(row);
  return {
    ...s,
    version: 0,
    entryCount: 0,
    leafCount: 0,
    labelCount: 0,
    models: [],
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    cost: 0,
    warnings: [],
    lineage: { status: "none" },
  };
}

/**
 * The sessions of the index's snapshot that come first by last activity (the list's "recent"
 * order): every row whose `modified` is at least the `count`-th newest, so that the list's own
 * sort of them puts the same `count` rows first as it would among all. Only their own values
 * are parsed, and only what a list row shows (ROW_KEYS; the rest left empty: these rows are
 * drawn, never kept in the state), and each one's file is
 * checked as the scan checks it (inode, size, mtime, ctime): undefined if one changed, went,
 * or the snapshot cannot be read, as the index is only a cache. They come from the record of
 * the snapshot's newest rows written beside it (src/index/newest-rows.ts) when it is of the
 * same snapshot, else from the whole snapshot, read and lent to the scan's SnapshotHere,
 * which then does not read it again. Sessions new since the snapshot are not among them: the
 * caller shows these as a scan's first rows, not as the list. None when the snapshot holds
 * fewer rows than `min` asks of where they come from (`record`, `whole`). None too when a
 * column is damaged (its JSON does not parse): the browser then opens on the scan alone, as
 * without an index. A damaged record is as none.
 */
export function newestInSnapshot(indexPath: string, count: number, min: MinRows = {}): SessionSummary[] | undefined {
  try {
    return newestRows(indexPath, count, min);
  } catch {
    return undefined;
  }
}

/** Rows a snapshot must hold for its newest rows to be taken out of its record, or out of the whole of it. */
export interface MinRows {
  record?: number;
  whole?: number;
}

function newestRows(indexPath: string, count: number, min: MinRows): SessionSummary[] | undefined {
  const record = readRecord(indexPath);
  if (record === "no index") return undefined;
  if (record !== "none") {
    if (record.n < (min.record ?? 0)) return undefined;
    const rows = fromRecord(record, count);
    if (rows !== "whole") return rows;
  }
  return fromWhole(indexPath, count, min.whole ?? 0);
}

/** The record read: "none" when there is none of this snapshot, "no index" when the index is not one to read. */
type RecordRead = NewestRecord | "none" | "no index";

/**
 * The snapshot's record of its newest rows (src/index/newest-rows.ts), read with the head of
 * the snapshot's body in one read transaction: "none" when it is not of this snapshot (an
 * earlier build wrote the snapshot since, or a build of another layout), or damaged; the
 * whole snapshot is read then.
 */
function readRecord(path: string): RecordRead {
  // Only an index of ours (no link, in folders of ours), as openSnapshot.
  if (!existsSync(path) || checkFile(path) || indexFoldersProblem(path, false)) return "no index";
  const { DatabaseSync } = loadSqlite();
  // Read-only: this only reads, as the browser starts, beside others writing. A WAL index
  // whose -shm is absent (its last connection closed) opens so too (tested).
  const db = new DatabaseSync(path, { readOnly: true, timeout: 100 });
  try {
    db.exec("BEGIN");
    try {
      const head = db.prepare("SELECT substr(body, 1, 256) AS b FROM snapshot WHERE id = 1").get() as
        { b: unknown } | undefined;
      const gen = isText(head?.b) ? bodyGen(head.b) : undefined;
      if (gen === undefined) return "none";
      const r = db.prepare("SELECT body FROM snapshot WHERE id = ?").get(NEWEST_ID) as { body: unknown } | undefined;
      return readNewest(isText(r?.body) ? r.body : undefined, gen) ?? "none";
    } finally {
      db.exec("COMMIT");
    }
  } finally {
    db.close();
  }
}

const isText = (b: unknown): b is Uint8Array | string => b instanceof Uint8Array || typeof b === "string";

/** The generation a body's head says, when it is of this layout (its identities start `{"n":…,"gen":"…"`). */
export function bodyGen(head: Uint8Array | string): string | undefined {
  const text = typeof head === "string" ? head : asciiText(head);
  if (!text.startsWith(LAYOUT)) return undefined;
  const m = /^[^\n]*\n\{"n":\d+,"gen":"([^"\\]+)"/.exec(text);
  return m?.[1];
}

/**
 * newestRows out of the record, the same rows as out of the whole snapshot, in the
 * snapshot's order; "whole" when the record cannot tell (a taller screen than it holds, or
 * rows at the threshold's time left out of it).
 */
export function fromRecord(record: NewestRecord, count: number): SessionSummary[] | undefined | "whole" {
  if (count <= 0) return undefined;
  const { rows } = record;
  if (rows.length === 0) return undefined;
  if (rows.length < count && record.next !== null) return "whole";
  const threshold = rows[Math.min(count, rows.length) - 1].row.modified as number;
  if (record.next !== null && record.next >= threshold) return "whole";
  const chosen = rows.filter((r) => (r.row.modified as number) >= threshold).sort((a, b) => a.i - b.i);
  // Ties at the threshold by the thousand: no short list to show.
  if (chosen.length > 4 * count) return undefined;
  const out: SessionSummary[] = [];
  for (const r of chosen) {
    const was = { ino: r.ino, bytes: r.size, mtimeMs: r.mtime, ctimeMs: r.ctime };
    if (checkIdentity(r.path, was) !== "same") return undefined;
    out.push(rowOnly({ ...r.row }));
  }
  return out;
}

/** newestRows out of the whole snapshot, read and decoded (then lent to the scan's SnapshotHere). */
function fromWhole(indexPath: string, count: number, minRows: number): SessionSummary[] | undefined {
  const decoded = openSnapshot(indexPath);
  if (!decoded) return undefined;
  lendSnapshot(indexPath, decoded);
  if (decoded.n < minRows) return undefined;
  const modified = decoded.column("modified");
  if (!modified || count <= 0) return undefined;
  const times = new Float64Array(decoded.n);
  let held = 0;
  for (let i = 0; i < decoded.n; i++) {
    const t = modified[i];
    if (typeof t === "number" && decoded.diagnostic(i) === null) times[held++] = t;
  }
  if (held === 0) return undefined;
  const newest = times.subarray(0, held).sort();
  const threshold = newest[Math.max(0, held - count)];
  const out: SessionSummary[] = [];
  for (let i = 0; i < decoded.n; i++) {
    const t = modified[i];
    if (typeof t !== "number" || t < threshold || decoded.diagnostic(i) !== null) continue;
    // Ties at the threshold by the thousand: no short list to show.
    if (out.length >= 4 * count) return undefined;
    const row = decoded.rowSummary(i, ROW_KEYS);
    if (!row) continue;
    const was = { ino: decoded.ino[i], bytes: decoded.size[i], mtimeMs: decoded.mtime[i], ctimeMs: decoded.ctime[i] };
    if (checkIdentity(decoded.path[i], was) !== "same") return undefined;
    out.push(rowOnly(row));
  }
  return out;
}

import { checkIdentity } from "../store/file-identity.js";
import { reviveSummary } from "../index/summary-codec.js";
import type { SessionSummary } from "../model/types.js";
import { lendSnapshot, openSnapshot } from "./snapshot-here.js";

/** What a list row shows and the list's default order sorts by: the only values parsed. */
const ROW_KEYS: ReadonlySet<string> = new Set([
  "path",
  "id",
  "cwd",
  "name",
  "parentSessionPath",
  "created",
  "modified",
  "messageCount",
  "firstMessage",
  "bytes",
  "mtimeMs",
  "ctimeMs",
]);

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
 * or the snapshot cannot be read, as the index is only a cache. What was read is lent to the
 * scan's SnapshotHere, which then does not read it again. Sessions new since the snapshot
 * are not among them: the caller shows these as a scan's first rows, not as the list.
 * None when the snapshot holds fewer than `minRows` rows (read all the same, and lent).
 * None too when a column is damaged (its JSON does not parse): the browser then opens on the
 * scan alone, as without an index.
 */
export function newestInSnapshot(indexPath: string, count: number, minRows = 0): SessionSummary[] | undefined {
  try {
    return newestRows(indexPath, count, minRows);
  } catch {
    return undefined;
  }
}

function newestRows(indexPath: string, count: number, minRows: number): SessionSummary[] | undefined {
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

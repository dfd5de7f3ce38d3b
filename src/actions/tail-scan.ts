import { constants as bufferConstants } from "node:buffer";
import type { SessionEntry } from "../model/types.js";
import { readRange } from "../store/read-range.js";

/** Bytes read at a time: the tail may be far longer than any string can be. */
export const TAIL_CHUNK_BYTES = 4 * 1024 * 1024;
/** The longest line decoded: a UTF-8 line of this many bytes is at most this many characters. */
export const MAX_TAIL_LINE_BYTES = bufferConstants.MAX_STRING_LENGTH;

/** What the file holds after the index's end, as of the last byte read. */
export interface Tail {
  leafId: string | null;
  ids: { has(id: string): boolean };
  endsWithNewline: boolean;
  /** A line too long to decode may be the last entry: the parent cannot be known. */
  unreadableLeaf: boolean;
}

/**
 * The tail read so far, kept across retries so that a retry reads only what was appended
 * since. Complete lines are folded into `leafId`/`ids`; the bytes after the last newline
 * read (a line not yet ended) are kept to be read whole once it ends.
 */
export interface TailScan {
  readonly start: number;
  readonly startLeafId: string | null;
  readonly startEndsWithNewline: boolean;
  /** The file offset read up to. */
  readTo: number;
  leafId: string | null;
  ids: Set<string>;
  unreadableLeaf: boolean;
  partial: Buffer[];
  partialBytes: number;
  /** Bytes read from the file in all (what the retries cost). */
  bytesRead: number;
}

export function newTailScan(start: number, leafId: string | null, endsWithNewline: boolean): TailScan {
  return {
    start,
    startLeafId: leafId,
    startEndsWithNewline: endsWithNewline,
    readTo: start,
    leafId,
    ids: new Set(),
    unreadableLeaf: false,
    partial: [],
    partialBytes: 0,
    bytesRead: 0,
  };
}

type Parsed = { id: string } | "unreadable" | null;

/** One line's entry id, null for a line that is not an entry (a half-written one: pi skips it too). */
function parseLine(parts: Buffer[], bytes: number, maxLine: number): Parsed {
  if (bytes > maxLine) return "unreadable";
  const text = (parts.length === 1 ? parts[0] : Buffer.concat(parts, bytes)).toString("utf8");
  if (!text.trim()) return null;
  try {
    const e = JSON.parse(text) as Partial<SessionEntry>;
    if (e && typeof e === "object" && e.type !== "session" && typeof e.id === "string") return { id: e.id };
  } catch {
    // Not JSON (yet).
  }
  return null;
}

function fold(
  into: { leafId: string | null; unreadableLeaf: boolean },
  ids: Set<string>,
  p: Parsed,
  strays: ReadonlySet<string>,
): void {
  if (p === null) return;
  if (p === "unreadable") {
    into.unreadableLeaf = true;
    return;
  }
  ids.add(p.id);
  if (!strays.has(p.id)) {
    into.leafId = p.id;
    into.unreadableLeaf = false;
  }
}

/**
 * Reads the file from where `scan` stopped up to `size`, in chunks, and answers what the
 * whole range from `scan.start` holds: the last entry (`strays`, our own entries that landed
 * behind another writer's line, are never a parent), the ids, whether it ends a line. A line
 * is parsed whole whatever the chunk edges; one longer than `maxLine` is not decoded.
 * A file that ends before `size` (or before what was read) shrank: `onShrink` is called.
 */
export function scanTail(
  fd: number,
  scan: TailScan,
  size: number,
  strays: ReadonlySet<string>,
  onShrink: () => never,
  chunkBytes = TAIL_CHUNK_BYTES,
  maxLine = MAX_TAIL_LINE_BYTES,
): Tail {
  if (size < scan.readTo) onShrink();
  // Strays lie past what was read when they were written; one read before means a caller's
  // mistake, and the answer is read again from the start rather than believed.
  if (scan.leafId !== null && strays.has(scan.leafId)) {
    Object.assign(scan, newTailScan(scan.start, scan.startLeafId, scan.startEndsWithNewline), {
      bytesRead: scan.bytesRead,
    });
  }
  if (size - scan.start <= 0)
    return {
      leafId: scan.leafId,
      ids: scan.ids,
      endsWithNewline: scan.startEndsWithNewline || size === 0,
      unreadableLeaf: false,
    };
  const chunk = size > scan.readTo ? Buffer.allocUnsafe(Math.min(chunkBytes, size - scan.readTo)) : null;
  while (chunk && scan.readTo < size) {
    const want = Math.min(chunk.length, size - scan.readTo);
    const got = readRange(fd, scan.readTo, want, chunk);
    scan.bytesRead += got.length;
    if (got.length < want) onShrink();
    let from = 0;
    for (let nl = got.indexOf(0x0a); nl !== -1; nl = got.indexOf(0x0a, from)) {
      const seg = got.subarray(from, nl);
      const parts = scan.partial.length ? [...scan.partial, seg] : [seg];
      fold(scan, scan.ids, parseLine(parts, scan.partialBytes + seg.length, maxLine), strays);
      scan.partial = [];
      scan.partialBytes = 0;
      from = nl + 1;
    }
    const rest = got.length - from;
    if (rest > 0) {
      // Past maxLine the bytes are only counted: the line is unreadable whatever follows.
      if (scan.partialBytes + rest <= maxLine) scan.partial.push(Buffer.from(got.subarray(from)));
      else scan.partial = [];
      scan.partialBytes += rest;
    }
    scan.readTo += got.length;
  }
  if (scan.partialBytes === 0)
    return { leafId: scan.leafId, ids: scan.ids, endsWithNewline: true, unreadableLeaf: scan.unreadableLeaf };
  // The line not yet ended counts as it stands (complete JSON without its newline is an entry).
  const last = { leafId: scan.leafId, unreadableLeaf: scan.unreadableLeaf };
  const lastIds = new Set<string>();
  fold(last, lastIds, parseLine(scan.partial, scan.partialBytes, maxLine), strays);
  const [extra] = lastIds;
  const ids = extra === undefined ? scan.ids : { has: (id: string) => id === extra || scan.ids.has(id) };
  return { leafId: last.leafId, ids, endsWithNewline: false, unreadableLeaf: last.unreadableLeaf };
}

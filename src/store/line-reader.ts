import { closeSync, openSync, readSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { freeBytes } from "./free-bytes.js";
import { fsPath } from "./fs-path.js";
import { type LineRef, LineSplitter } from "./line-splitter.js";

export type { LineRef } from "./line-splitter.js";

/**
 * What one line may cost in memory: longer lines are passed over, reported with their
 * length, and skipped by every reader. pi's biggest real lines (tool outputs) are tens of
 * MB; a line past this is damage (a file ending in a sparse gigabyte of NUL bytes, say),
 * and assembling it would take gigabytes.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface ReadLinesOptions {
  chunkSize?: number;
  /** Stop after this many bytes (header probes). A line cut by the limit is not reported. */
  maxBytes?: number;
  /**
   * Blocking reads (openSync/readSync): no threadpool round trip per read, ~20% less wall
   * time on a warm-cache store scan, but the event loop is blocked while the kernel
   * reads. Only for batch callers (the CLI), never for a UI.
   */
  sync?: boolean;
  /**
   * Asynchronous reads only: read the next chunk while the lines of this one are handled
   * (a second chunk buffer). For one big file read in full, where waiting on each read
   * in turn left the thread idle for a fifth of the time.
   */
  readAhead?: boolean;
  /** Longer lines are reported with `oversize` and no bytes (default MAX_LINE_BYTES). */
  maxLineBytes?: number;
  /** Start at this byte offset, the start of a line (an append read from where an index stopped). */
  start?: number;
  /** Return false from the callback to stop early. */
}

/** A line's length in bytes (without its newline), whether or not its bytes were kept. */
export function lineLength(ref: LineRef): number {
  return ref.oversize ?? ref.end - ref.start;
}

const NL = 0x0a;
const DEFAULT_CHUNK = 1 << 20;

// Chunk buffers are reused across files: a fresh 1 MiB buffer per file costs page
// faults and external-memory GC for every file of a store (2,000 files → 2 GB allocated).
// Safe because a LineRef is only valid during its callback (the chunk is overwritten by
// the next read anyway). At most a few are kept: one per concurrent reader.
const pool: Buffer[] = [];
const POOL_MAX = 8;
function takeChunk(size: number): Buffer {
  return size === DEFAULT_CHUNK ? (pool.pop() ?? Buffer.allocUnsafe(size)) : Buffer.allocUnsafe(size);
}
function giveChunk(buf: Buffer): void {
  if (buf.length === DEFAULT_CHUNK && pool.length < POOL_MAX) pool.push(buf);
}

/**
 * The chunks kept for the next reads, let go of (a command's scan is over: `list` writes
 * its snapshot after it, and a megabyte a reader was held beside it). Reads made after take new ones.
 */
export function releaseReadChunks(): void {
  for (const buf of pool.splice(0)) freeBytes(buf);
}

/**
 * Calls `onLine` for every line of the file, reading fixed-size chunks. Lines are split
 * on the newline byte, which never occurs inside a UTF-8 sequence, so multi-byte
 * characters are never split; a line longer than a chunk (a 20 MB tool result) is
 * assembled from its parts. Memory is one chunk plus the longest line, at most
 * `maxLineBytes`: a longer line is counted, not kept (see LineRef.oversize).
 */
export async function readLines(
  path: string,
  onLine: (line: LineRef) => boolean | void,
  options: ReadLinesOptions = {},
): Promise<{ bytesRead: number; endsWithNewline: boolean; stopped: boolean }> {
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK;
  const start = options.start ?? 0;
  const limit = start + (options.maxBytes ?? Infinity);
  const maxLine = options.maxLineBytes ?? MAX_LINE_BYTES;
  const sync = options.sync === true;
  const fd = sync ? openSync(fsPath(path), "r") : -1;
  const fh: FileHandle | undefined = sync ? undefined : await open(fsPath(path), "r");
  const size = Math.min(chunkSize, Math.max(1, limit - start));
  const chunks = [takeChunk(size)];
  if (fh && options.readAhead) chunks.push(takeChunk(size));
  let pending: Promise<{ bytesRead: number }> | undefined;
  try {
    let filePos = start;
    const lines = new LineSplitter(maxLine, onLine);
    let lastByte = -1;
    let turn = 0;
    for (;;) {
      const chunk = chunks[turn++ % chunks.length];
      const want = Math.min(chunk.length, limit - filePos);
      if (want <= 0) {
        return { bytesRead: filePos - start, endsWithNewline: lastByte === NL, stopped: true };
      }
      const read = pending ?? fh?.read(chunk, 0, want, filePos);
      pending = undefined;
      const bytesRead = read ? (await read).bytesRead : readSync(fd, chunk, 0, want, filePos);
      if (bytesRead === 0) break;
      // A short read of a regular file is its end: skip the extra read that would return 0
      // (one threadpool round trip per file). Data appended meanwhile is simply not seen.
      const atEnd = bytesRead < want;
      const chunkStart = filePos;
      filePos += bytesRead;
      if (fh && chunks.length > 1 && !atEnd && filePos < limit) {
        const next = chunks[turn % chunks.length];
        pending = fh.read(next, 0, Math.min(next.length, limit - filePos), filePos);
      }
      lastByte = chunk[bytesRead - 1];
      if (!lines.feed(chunk, bytesRead, chunkStart))
        return { bytesRead: filePos - start, endsWithNewline: false, stopped: true };
      if (filePos >= limit) {
        // A line cut by the probe limit is unknown, not truncated: don't report it.
        return { bytesRead: filePos - start, endsWithNewline: lastByte === NL, stopped: true };
      }
      if (atEnd) break;
    }
    lines.end();
    return { bytesRead: filePos - start, endsWithNewline: lastByte === NL || filePos === 0, stopped: false };
  } finally {
    // A read still in flight (the caller stopped early) must land before its buffer is reused.
    if (pending) await pending.catch(() => undefined);
    for (const c of chunks) giveChunk(c);
    if (fh) await fh.close();
    else closeSync(fd);
  }
}

/**
 * readLines, blocking: for one file read while nothing else may happen (an action waiting
 * on its session's file, src/browser/app/effectRunner.ts). Throws when the file cannot be read.
 */
export function readLinesSync(
  path: string,
  onLine: (line: LineRef) => boolean | void,
  options: Pick<ReadLinesOptions, "chunkSize" | "maxLineBytes"> = {},
): { stopped: boolean; bytesRead: number } {
  const fd = openSync(fsPath(path), "r");
  const chunk = takeChunk(options.chunkSize ?? DEFAULT_CHUNK);
  const lines = new LineSplitter(options.maxLineBytes ?? MAX_LINE_BYTES, onLine);
  try {
    let filePos = 0;
    for (;;) {
      const bytesRead = readSync(fd, chunk, 0, chunk.length, filePos);
      if (bytesRead === 0) break;
      const chunkStart = filePos;
      filePos += bytesRead;
      if (!lines.feed(chunk, bytesRead, chunkStart)) return { stopped: true, bytesRead: filePos };
    }
    lines.end();
    return { stopped: false, bytesRead: filePos };
  } finally {
    closeSync(fd);
    giveChunk(chunk);
  }
}

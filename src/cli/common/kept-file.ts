import { closeSync, readSync } from "node:fs";

/*
 * A kept answer (answer-cache.ts) read from its file a chunk at a time rather than whole, or
 * held in memory: what a command writes out as it was kept (list --json's, the text list's).
 */

/**
 * An answer to write out as it was kept, read a chunk at a time: at 50,000 sessions `list
 * --json`'s is 48 MB, and read whole that much fresh memory was a third of its relaunch.
 */
export interface KeptFile {
  err: string;
  /** The answer's length in bytes. */
  bytes: number;
  /** Fills `into` with the answer's bytes from `at` (fewer only at its end): how many. */
  read(into: Uint8Array, at: number): number;
  /**
   * The answer's bytes, a chunk at a time into one buffer (a chunk is good until the next
   * is asked for), each ending where a character ends; the file is closed once all are read.
   * They were checked whole (length, checksum) before this was handed out, and an answer file
   * is only ever replaced, never written in place: the same open file reads the same bytes.
   * A read that fails here all the same (EIO, the file cut short by hand) is no miss: bytes
   * may be out already, so the command fails ("a kept answer was cut short while read", exit 1).
   */
  chunks(): Generator<Uint8Array>;
  /** Lets the file go: chunks() does once all are read; nothing can be read after. */
  close(): void;
}

/** An answer's bytes in memory as a KeptFile. */
export function keptBytes(err: string, out: Uint8Array): KeptFile {
  const b = Buffer.from(out.buffer, out.byteOffset, out.length);
  return {
    err,
    bytes: out.length,
    read: (into, at) => b.copy(into, 0, at),
    *chunks() {
      yield out;
    },
    close() {},
  };
}

/** The bytes a kept file is read in at a time. */
export const CHUNK = 1 << 20;

/**
 * Where the last whole UTF-8 character of `b`'s first `n` bytes ends: at `n`, or before
 * a character cut short there (its first byte and the ones after it belong to the next chunk).
 */
export function wholeCharsEnd(b: Uint8Array, n: number): number {
  let s = n - 1;
  // Back over continuation bytes (10xxxxxx) to the last character's first byte.
  while (s > 0 && n - s < 4 && (b[s] & 0xc0) === 0x80) s--;
  if (s < 0) return n;
  const lead = b[s];
  const len = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return s + len > n ? s : n;
}

/**
 * The bytes of `fd` from `from` to `to`, a chunk at a time into `buf`; `whole`: each chunk
 * ends where a character does (the rest is read again at the head of the next).
 */
export function* chunksOf(fd: number, buf: Buffer, from: number, to: number, whole: boolean): Generator<Uint8Array> {
  for (let at = from; at < to;) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, to - at), at);
    if (n === 0) throw new Error("a kept answer was cut short while read");
    // (A chunk of a few bytes all of one character cut short, were a read ever that short: as it is.)
    const end = (whole && at + n < to && wholeCharsEnd(buf, n)) || n;
    yield buf.subarray(0, end);
    at += end;
  }
}

/**
 * The KeptFile of an answer file open as `fd` and checked whole (answer-cache.ts: file()):
 * its `bytes` from `from` on, read into `buf` a chunk at a time.
 */
export function keptFileOf(fd: number, err: string, from: number, bytes: number, buf: Buffer): KeptFile {
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  return {
    err,
    bytes,
    read(into, at) {
      const want = Math.max(0, Math.min(into.length, bytes - at));
      let got = 0;
      while (got < want) {
        const n = readSync(fd, into, got, want - got, from + at + got);
        if (n === 0) break;
        got += n;
      }
      return got;
    },
    *chunks() {
      try {
        yield* chunksOf(fd, buf, from, from + bytes, true);
      } finally {
        close();
      }
    },
    close,
  };
}

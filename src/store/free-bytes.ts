/**
 * A buffer's memory let go of now rather than at V8's next collection: its ArrayBuffer is
 * detached (ArrayBuffer.prototype.transfer(0)), which frees what it held at once, and the
 * buffer (every view of it) is empty from then on. For megabytes made, handed on and dead
 * (a snapshot's column once SQLite has copied it): at 50,000 sessions such buffers waited
 * for a collection by the tens of megabytes while the next ones were made.
 *
 * Only a buffer that is all of its ArrayBuffer (give or take a few bytes) and held by no one
 * else may be given; a smaller one, or a view into a larger buffer (Node's pool of small
 * buffers), is left as it is.
 */
export function freeBytes(b: Uint8Array): void {
  const whole = b.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (b.byteOffset !== 0 || b.byteLength < MIN_BYTES || whole.byteLength > b.byteLength + SLACK) return;
  try {
    whole.transfer?.(0);
  } catch {
    // Not detachable (a WebAssembly memory's, say): left to V8, as before.
  }
}

/** Smaller buffers may be slices of Node's pool (Buffer.poolSize, 8 KB: only buffers under half of it are). */
const MIN_BYTES = 1 << 13;
/** What a buffer may leave unused of its ArrayBuffer (zlib's output: its length and one byte). */
const SLACK = 64;

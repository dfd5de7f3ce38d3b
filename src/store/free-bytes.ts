/**
 * A buffer's memory let go of now rather than at V8's next collection: its ArrayBuffer is
 * detached (ArrayBuffer.prototype.transfer(0)), which frees what it held at once, and the
 * buffer (every view of it) is empty from then on. For megabytes made, handed on and dead
 * (a snapshot's column once SQLite has copied it): at 50,000 sessions such buffers waited
 * for a collection by the tens of megabytes while the next ones were made.
 *
 * Only a buffer that is all of its ArrayBuffer (give or take a few bytes) and held by no one
 * else may be given. A view into a larger ArrayBuffer (a slice of Node's pool of small
 * buffers, of zlib's output chunk, of a larger buffer) is left as it is, and so is a buffer
 * under 8 KB: not worth the call.
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

/**
 * Only a cut-off below which freeing is not worth a call (V8 frees a small buffer soon
 * enough); not what keeps a pool's slice (SLACK refuses those: their ArrayBuffer is larger).
 */
const MIN_BYTES = 1 << 13;
/** What a buffer may leave unused of its ArrayBuffer (zlib's output: its length and one byte). */
const SLACK = 64;

import { readSync } from "node:fs";

/**
 * Reads `length` bytes at `offset` of an open file, synchronously (short reads looped; stops at
 * EOF). Into `into` when given (at least `length` long: a caller reading many files into one
 * buffer), else into a new buffer.
 */
export function readRange(fd: number, offset: number, length: number, into?: Buffer): Buffer {
  const buf = into ?? Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, offset + got);
    if (n === 0) break;
    got += n;
  }
  return got === buf.length ? buf : buf.subarray(0, got);
}

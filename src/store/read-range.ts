import { readSync } from "node:fs";

/** Reads `length` bytes at `offset` of an open file, synchronously (short reads looped; stops at EOF). */
export function readRange(fd: number, offset: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, offset + got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? buf : buf.subarray(0, got);
}

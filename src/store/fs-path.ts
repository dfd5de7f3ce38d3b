/*
 * File names are bytes; a name that is not UTF-8 (copied from an old Latin-1 system, say)
 * has no faithful JavaScript string, and Node's own decoding (U+FFFD for each bad byte)
 * names a file that does not exist. Such names are kept as strings in which each byte
 * that is not part of valid UTF-8 is a lone surrogate U+DC80–U+DCFF (Python's
 * "surrogateescape"): the string goes everywhere a path goes (across the scan's worker
 * thread too) and fsPath() turns it back into the exact bytes for the file system. The
 * sanitizer shows those bytes as U+FFFD.
 */

const ESCAPED = /[\udc80-\udcff]/;
const strict = new TextDecoder("utf-8", { fatal: true });

/** A directory entry's name as a string that round-trips to its bytes (see above). */
export function decodeName(bytes: Buffer): string {
  try {
    return strict.decode(bytes);
  } catch {
    return escapeInvalid(bytes);
  }
}

/** Valid UTF-8 sequences decoded, every other byte as U+DC00 + byte. */
function escapeInvalid(b: Buffer): string {
  let out = "";
  let i = 0;
  while (i < b.length) {
    const n = sequenceLength(b, i);
    if (n > 0) {
      out += b.toString("utf8", i, i + n);
      i += n;
    } else {
      out += String.fromCharCode(0xdc00 + b[i]);
      i++;
    }
  }
  return out;
}

/** Bytes of the well-formed UTF-8 sequence at `i`, or 0 (overlongs, surrogates and > U+10FFFF are not well-formed). */
function sequenceLength(b: Buffer, i: number): number {
  const c = b[i];
  const cont = (k: number) => i + k < b.length && (b[i + k] & 0xc0) === 0x80;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    if (!cont(1) || !cont(2)) return 0;
    const c1 = b[i + 1];
    if (c === 0xe0 && c1 < 0xa0) return 0;
    if (c === 0xed && c1 > 0x9f) return 0;
    return 3;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    const c1 = b[i + 1];
    if (c === 0xf0 && c1 < 0x90) return 0;
    if (c === 0xf4 && c1 > 0x8f) return 0;
    return 4;
  }
  return 0;
}

/** What to hand the file system for a path: the string itself, or the exact bytes of an escaped name. */
export function fsPath(p: string): string | Buffer {
  if (!ESCAPED.test(p)) return p;
  const parts: Buffer[] = [];
  let run = "";
  for (let i = 0; i < p.length; i++) {
    const c = p.charCodeAt(i);
    // A lone low surrogate from decodeName (a pair's second half is never in this range alone).
    const lone =
      c >= 0xdc80 && c <= 0xdcff && !(i > 0 && p.charCodeAt(i - 1) >= 0xd800 && p.charCodeAt(i - 1) <= 0xdbff);
    if (!lone) {
      run += p[i];
      continue;
    }
    if (run) parts.push(Buffer.from(run, "utf8"));
    run = "";
    parts.push(Buffer.of(c - 0xdc00));
  }
  if (run) parts.push(Buffer.from(run, "utf8"));
  return Buffer.concat(parts);
}

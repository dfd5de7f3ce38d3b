import { eastAsianWidth } from "get-east-asian-width";

/**
 * Columns as a terminal that measures code point by code point shows them (VTE, xterm,
 * glibc's wcwidth with Unicode 9+ data): combining marks 0, East Asian Wide and Fullwidth
 * 2, the rest 1, and format characters 1 (the worst case: xterm.js counts WJ as 1, glibc
 * the soft hyphen). No grapheme clusters: a ZWJ sequence is its parts.
 */
export function terminalColumns(s: string): number {
  let w = 0;
  for (const ch of s) {
    if (/\p{Mn}|\p{Me}/u.test(ch)) continue;
    w += eastAsianWidth(ch.codePointAt(0)!);
  }
  return w;
}

/*
 * Terminal input → the keys a terminal would have sent one by one.
 *
 * A read from a terminal can hold many keys: over SSH, from a fast typist or a key macro,
 * "/huge tool\r\r" arrives as one string. Everything downstream (Ink's useInput, our
 * reducers, third-party components) must see one key per event, in order. The tokenizer
 * is pure and keeps state across reads, so a sequence cut between two reads (ESC | [A)
 * is still one key, and a bracketed paste is one token however many reads it spans.
 */

export type Token = { kind: "key"; seq: string } | { kind: "paste"; text: string };

const ESC = "\x1b";
const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

export interface Tokenizer {
  /** The complete tokens in `chunk` (after what earlier reads left pending). */
  push(chunk: string): Token[];
  /**
   * Called when no more input came for a while: a lone ESC is the Escape key, and a
   * sequence that never completed is passed on as it is. A paste still open stays open.
   */
  flush(): Token[];
  /** Whether something is held back, waiting for more input (flush() after a pause). */
  pending(): boolean;
}

const isFinal = (c: number) => c >= 0x40 && c <= 0x7e;
const isParamOrIntermediate = (c: number) => c >= 0x20 && c <= 0x3f;

/**
 * Length of the escape sequence at `i` (s[i] is ESC), "partial" when `s` ends inside it,
 * or 1 for a lone ESC followed by something that starts no sequence.
 */
function escapeLength(s: string, i: number): number | "partial" {
  if (i + 1 >= s.length) return "partial";
  const next = s[i + 1];
  if (next === "[") {
    let j = i + 2;
    // Legacy function keys: ESC [ [ A.
    if (s[j] === "[") j++;
    for (; j < s.length; j++) {
      const c = s.charCodeAt(j);
      // rxvt's shifted keys end in "$" after digits only (ESC [ 2 $, Shift+F11 ESC [ 23 $);
      // elsewhere "$" is an intermediate byte and the sequence goes on.
      if (c === 0x24 && j > i + 2 && /^\d+$/.test(s.slice(i + 2, j))) return j - i + 1;
      if (isFinal(c)) return j - i + 1;
      if (!isParamOrIntermediate(c)) return j - i; // broken: end before the stray byte
    }
    return "partial";
  }
  if (next === "O") {
    for (let j = i + 2; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (isFinal(c)) return j - i + 1;
      if (c !== 0x3b && (c < 0x30 || c > 0x39)) return j - i;
    }
    return "partial";
  }
  if (next === ESC) {
    // ESC ESC [ A: Alt+arrow in some terminals; ESC ESC alone is Alt+Escape.
    if (i + 2 >= s.length) return "partial";
    if (s[i + 2] === "[" || s[i + 2] === "O") {
      const inner = escapeLength(s, i + 1);
      return inner === "partial" ? "partial" : inner + 1;
    }
    return 2;
  }
  // Alt+key: ESC followed by one code point (whose second half may be in the next read).
  const cp = s.codePointAt(i + 1) ?? 0;
  if (cp >= 0xd800 && cp <= 0xdbff && i + 2 >= s.length) return "partial";
  return cp > 0xffff ? 3 : 2;
}

export function createTokenizer(): Tokenizer {
  let buf = "";
  /** Inside a bracketed paste: the text so far. */
  let paste: string | null = null;

  function drain(final: boolean): Token[] {
    const out: Token[] = [];
    let i = 0;
    while (i < buf.length) {
      if (paste !== null) {
        const end = buf.indexOf(PASTE_END, i);
        if (end < 0) {
          // Keep a tail that could be the start of the end marker.
          let keep = 0;
          for (let k = Math.min(PASTE_END.length - 1, buf.length - i); k > 0; k--) {
            if (PASTE_END.startsWith(buf.slice(buf.length - k))) {
              keep = k;
              break;
            }
          }
          paste += buf.slice(i, buf.length - keep);
          i = buf.length - keep;
          break;
        }
        paste += buf.slice(i, end);
        out.push({ kind: "paste", text: paste });
        paste = null;
        i = end + PASTE_END.length;
        continue;
      }
      const ch = buf[i];
      if (ch === ESC) {
        if (buf.startsWith(PASTE_START, i)) {
          paste = "";
          i += PASTE_START.length;
          continue;
        }
        if (PASTE_START.startsWith(buf.slice(i)) && !final) break; // maybe a paste marker
        const n = escapeLength(buf, i);
        if (n === "partial") {
          if (!final) break;
          out.push({ kind: "key", seq: buf.slice(i) });
          i = buf.length;
          continue;
        }
        out.push({ kind: "key", seq: buf.slice(i, i + n) });
        i += n;
        continue;
      }
      // One code point per key: every control byte, Enter, Tab and Backspace stand alone,
      // and a printable run is split too, so each character meets the state before it.
      const cp = buf.codePointAt(i) ?? 0;
      const len = cp > 0xffff ? 2 : 1;
      // A lone high surrogate at the end of a read waits for its other half.
      if (len === 1 && cp >= 0xd800 && cp <= 0xdbff && i + 1 >= buf.length && !final) break;
      out.push({ kind: "key", seq: buf.slice(i, i + len) });
      i += len;
    }
    buf = buf.slice(i);
    return out;
  }

  return {
    push(chunk) {
      buf += chunk;
      return drain(false);
    },
    flush() {
      if (paste !== null) return [];
      return drain(true);
    },
    pending() {
      return buf.length > 0;
    },
  };
}

/** All tokens of the given reads, with a pause (flush) after the last one. */
export function tokenizeReads(reads: readonly string[]): Token[] {
  const t = createTokenizer();
  return [...reads.flatMap((r) => t.push(r)), ...t.flush()];
}

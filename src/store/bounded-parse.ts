/*
 * JSON of a huge line, parsed only as far as a summary or an index needs it. A 60 MB
 * message of a million small content blocks costs JSON.parse hundreds of MB of objects;
 * listing needs its role, ids, time, model, usage and first text. This reads the bytes
 * directly (no 60 MB string), keeps the first `maxItems` of each array or object and the
 * first `maxString` characters of each string, and steps over the rest without building
 * anything. No recursion: nesting depth costs no stack.
 */

import { setOwn } from "../model/bounded-json.js";

export interface BoundedOptions {
  maxItems: number;
  maxString: number;
}

/** What a summary or an index row needs of a huge line. */
export const BOUNDED: BoundedOptions = { maxItems: 64, maxString: 16 * 1024 };

/** What a screen can show of a huge entry (the preview, the reader): its first thousands of blocks and characters. */
export const SHOWN: BoundedOptions = { maxItems: 2000, maxString: 256 * 1024 };

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

type Frame =
  | { kind: "obj"; value: Record<string, unknown>; key?: string; n: number }
  | { kind: "arr"; value: unknown[]; n: number };

class Bad extends Error {}

/** The parsed value, arrays, objects and strings cut as `o` says; throws SyntaxError on bad JSON. */
export function parseBounded(buf: Buffer, start: number, end: number, o: BoundedOptions = BOUNDED): unknown {
  let i = start;
  const ws = () => {
    while (i < end && WS.has(buf[i])) i++;
  };
  /** The end of the string starting at `i` (its opening quote): the index of its closing quote. */
  const stringEnd = (at: number): number => {
    for (let k = at + 1; k < end; k++) {
      const c = buf[k];
      if (c === BACKSLASH) k++;
      else if (c === QUOTE) return k;
    }
    throw new Bad("unterminated string");
  };
  const readString = (): string => {
    const close = stringEnd(i);
    let cut = close;
    // Keep about maxString characters (×4 bytes at most), cut where no escape or UTF-8 sequence breaks.
    if (close - i - 1 > o.maxString * 4) {
      cut = i + 1 + o.maxString * 4;
      while (cut > i + 1 && (buf[cut] & 0xc0) === 0x80) cut--;
      const lastEscape = buf.lastIndexOf(BACKSLASH, cut - 1);
      if (lastEscape > i && cut - lastEscape <= 6) cut = lastEscape;
    }
    const raw = buf.toString("utf8", i + 1, cut);
    i = close + 1;
    const s = JSON.parse(`"${raw}"`) as string;
    return s.length > o.maxString ? s.slice(0, o.maxString) : s;
  };
  /** Steps over one value without building it. */
  const skipValue = () => {
    ws();
    let depth = 0;
    do {
      const c = buf[i];
      if (c === QUOTE) i = stringEnd(i) + 1;
      else {
        if (c === 0x7b || c === 0x5b) depth++;
        else if (c === 0x7d || c === 0x5d) depth--;
        else if (depth === 0 && (c === 0x2c || WS.has(c))) return;
        i++;
      }
      if (depth === 0 && (buf[i] === 0x2c || buf[i] === 0x7d || buf[i] === 0x5d || WS.has(buf[i]) || i >= end)) return;
    } while (i < end);
  };
  const scalar = (): unknown => {
    const from = i;
    while (i < end && !WS.has(buf[i]) && buf[i] !== 0x2c && buf[i] !== 0x7d && buf[i] !== 0x5d) i++;
    return JSON.parse(buf.toString("utf8", from, i));
  };

  const stack: Frame[] = [];
  let result: unknown;
  let done = false;
  const deliver = (v: unknown) => {
    const top = stack[stack.length - 1];
    if (!top) {
      result = v;
      done = true;
    } else if (top.kind === "arr") top.value.push(v);
    else setOwn(top.value, top.key!, v);
  };
  try {
    for (;;) {
      ws();
      const top = stack[stack.length - 1];
      // Inside a container: its end, a separator, or (objects) a key.
      if (top) {
        const c = buf[i];
        if ((top.kind === "arr" && c === 0x5d) || (top.kind === "obj" && c === 0x7d)) {
          i++;
          stack.pop();
          deliver(top.value);
          if (done) break;
          continue;
        }
        if (top.n > 0) {
          if (c !== 0x2c) throw new Bad("expected ,");
          i++;
          ws();
        }
        top.n++;
        if (top.n > o.maxItems) {
          // Past the limit: step over the rest of this container's members.
          if (top.kind === "obj") {
            readString();
            ws();
            i++; // :
          }
          skipValue();
          continue;
        }
        if (top.kind === "obj") {
          if (buf[i] !== QUOTE) throw new Bad("expected a key");
          top.key = readString();
          ws();
          if (buf[i] !== 0x3a) throw new Bad("expected :");
          i++;
          ws();
        }
      }
      const c = buf[i];
      if (c === 0x7b) {
        i++;
        stack.push({ kind: "obj", value: {}, n: 0 });
      } else if (c === 0x5b) {
        i++;
        stack.push({ kind: "arr", value: [], n: 0 });
      } else {
        deliver(c === QUOTE ? readString() : scalar());
        if (done) break;
      }
    }
    ws();
    if (i !== end) throw new Bad("trailing text");
    return result;
  } catch (err) {
    throw new SyntaxError(err instanceof Error ? err.message : String(err), { cause: err });
  }
}

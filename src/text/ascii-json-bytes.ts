import { asciiJson } from "./ascii-json.js";

/**
 * Array elements stringified at a time: few enough that each slice's text is a young
 * object (2,048 of the snapshot's paths made 300 KB strings, which V8 keeps among its
 * large objects until a full collection: 20 MB of them as a 50,000-session snapshot's body
 * was made).
 */
const SLICE = 512;

/**
 * asciiJson's text of a value as bytes, its long arrays (and a plain object's, one level
 * down) stringified a slice at a time: the snapshot's columns of 50,000 values each made
 * one string of megabytes, and V8 let tens of megabytes of them wait for a full collection.
 * `prefix` (Latin-1) goes before it in the same bytes.
 */
export function asciiJsonBytes(value: unknown, prefix = ""): Buffer {
  return Buffer.concat(asciiJsonParts(value, prefix));
}

/** asciiJsonBytes's bytes as the pieces it makes them in (a caller putting them into a larger value copies them once). */
export function asciiJsonParts(value: unknown, prefix = ""): Buffer[] {
  const parts: Buffer[] = [Buffer.from(prefix, "latin1")];
  const put = (text: string) => parts.push(Buffer.from(text, "latin1"));
  const add = (v: unknown, depth: number) => {
    if (Array.isArray(v) && v.length > SLICE) {
      for (let a = 0; a < v.length; a += SLICE) {
        const text = asciiJson(v.slice(a, a + SLICE));
        put((a ? "," : "[") + text.slice(1, -1));
      }
      put("]");
    } else if (depth === 0 && isPlainObject(v)) {
      let first = true;
      for (const [k, x] of Object.entries(v)) {
        // As JSON.stringify: a key whose value has no JSON is no key.
        if (x === undefined || typeof x === "function" || typeof x === "symbol") continue;
        put((first ? "{" : ",") + asciiJson(k) + ":");
        first = false;
        add(x, depth + 1);
      }
      put(first ? "{}" : "}");
    } else put(asciiJson(v));
  };
  add(value, 0);
  return parts;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype && !("toJSON" in v);
}

import { constants } from "node:buffer";
import { fieldTextOf, partOf, PART_SEPARATOR, type FieldText } from "../../search/field-text.js";
import type { Searchable } from "../../search/query.js";

/*
 * The list's field text (fieldContext.ts) holds each session's part as its UTF-8 bytes, a
 * character each (latin1), and a word is looked for as its bytes. One character past U+00FF
 * anywhere (an emoji, a CJK word) made the whole text two bytes a character, in V8's heap
 * (~31 MB for 50,000 sessions of the bench's kind, kept while words are typed); a string
 * this large read out of a buffer is held outside it (~4 MB of heap left: the lengths).
 * UTF-8 is self-synchronising, so the bytes of a word are found exactly where the word is.
 * A word is always well-formed (the search bar's field sanitizes what is typed or pasted:
 * sanitizeLine makes a lone surrogate U+FFFD). A field may hold a lone surrogate (a session
 * file's JSON can): it becomes U+FFFD's bytes here, so a word holding U+FFFD may be found
 * there when the field itself holds none, which only sends that session to be matched
 * field by field (mayHold is a "may"; fromBytes leaves such a field to be folded again).
 */

const SEPARATOR = PART_SEPARATOR.charCodeAt(0);
const ASCII = /^[\u0000-\u007f]*$/;
const NOT_ASCII = /[\u0080-\u00ff]/;

/** A word as the text holds it. */
export const asBytes = (s: string) => (ASCII.test(s) ? s : Buffer.from(s, "utf8").toString("latin1"));

/** A field out of the text, as a string again; undefined when it held what UTF-8 cannot (a lone surrogate: U+FFFD). */
export const fromBytes = (s: string): string | undefined => {
  if (!NOT_ASCII.test(s)) return s;
  const back = Buffer.from(s, "latin1").toString("utf8");
  return back.includes("\ufffd") ? undefined : back;
};

/** A field text of the list's: `utf8`, each part its UTF-8 bytes; else the parts as text (fieldTextOf). */
export interface ListText extends FieldText {
  utf8: boolean;
}

/**
 * The field text of `list`, each part its UTF-8 bytes; `had` gives parts already so (of a text
 * made before). A text of more bytes than a string may hold (`maxLength`) is made of the parts
 * as text: CJK is three bytes a character, and the text as UTF-16 holds three times as much
 * before it is too long (the limit it had before it was bytes).
 */
export function bytesText(
  list: readonly Searchable[],
  had: Map<Searchable, string> | undefined,
  maxLength: number = constants.MAX_STRING_LENGTH,
): ListText {
  // Written into one buffer and read out as one string: a buffer and a string per part cost
  // ~50 % more than folding them all.
  const parts: string[] = new Array(list.length);
  const kept = new Uint8Array(list.length);
  const lengths: number[] = new Array(list.length);
  let bytes = 0;
  for (let i = 0; i < list.length; i++) {
    const was = had?.get(list[i]);
    if (was !== undefined) kept[i] = 1;
    const p = (parts[i] = was ?? partOf(list[i]));
    bytes += lengths[i] = was !== undefined ? p.length : Buffer.byteLength(p, "utf8");
  }
  const total = bytes + Math.max(0, list.length - 1);
  // Folded again, not read back from `had`: a lone surrogate's U+FFFD would stand for it.
  if (total > maxLength) return { ...fieldTextOf(list), utf8: false };
  const buf = Buffer.allocUnsafe(total);
  let at = 0;
  for (let i = 0; i < list.length; i++) {
    if (i > 0) buf[at++] = SEPARATOR;
    at += buf.write(parts[i], at, kept[i] ? "latin1" : "utf8");
  }
  return { text: buf.toString("latin1", 0, at), lengths, utf8: true };
}

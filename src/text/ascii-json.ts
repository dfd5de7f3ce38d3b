/*
 * JSON kept as bytes by the index (its snapshot, search's rows): every character past
 * ASCII escaped (JSON reads \uXXXX back as the same one), so the text is its own bytes,
 * read back as Latin-1 without decoding UTF-8, and parsed faster.
 */

const NON_ASCII = /[\u0080-\uffff]/g;

/** JSON.stringify with every non-ASCII code unit escaped: one byte per character, no newline. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The text of bytes written from asciiJson (Latin-1: exact for ASCII, no decoding), from `start` to `end`. */
export function asciiText(bytes: Uint8Array, start = 0, end?: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1", start, end);
}

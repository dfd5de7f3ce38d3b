import type { SessionSummary } from "../../model/types.js";
import { jsonElement, lineageInElement, safeJson, summaryToJson } from "../../model/summary-json.js";

export { safeJson, summaryToJson };

/**
 * safeJson of an array, written in pieces of about a megabyte: the same text, without the
 * whole of it (10 MB for 10,000 sessions, and its escaped copy) in memory at once.
 */
export function writeJsonArray<T>(items: readonly T[], toJson: (x: T) => unknown, write: (text: string) => void): void {
  if (items.length === 0) {
    write("[]\n");
    return;
  }
  let chunk = "[\n";
  for (let i = 0; i < items.length; i++) {
    // An element as JSON.stringify(array, null, 2) nests it: every line two spaces in.
    chunk += jsonElement(toJson(items[i])) + (i + 1 < items.length ? ",\n" : "\n]\n");
    if (chunk.length >= 1 << 20) {
      write(chunk);
      chunk = "";
    }
  }
  if (chunk) write(chunk);
}

/**
 * `list --json` of these summaries: writeJsonArray(sessions, summaryToJson), the same text,
 * but where `kept` has a summary's element (the persistent index's UTF-8 bytes, without the
 * lineage) that is written with the lineage put in, instead of made again. In pieces of
 * about a megabyte, as bytes to `writeBytes` when given, else as text to `write`.
 */
export function writeSummariesJson(
  sessions: readonly SessionSummary[],
  kept: (s: SessionSummary) => readonly [Uint8Array, Uint8Array] | undefined,
  write: (text: string) => void,
  writeBytes: (bytes: Uint8Array) => void = (b) => write(Buffer.from(b.buffer, b.byteOffset, b.length).toString()),
): void {
  if (sessions.length === 0) {
    write("[]\n");
    return;
  }
  let parts: Uint8Array[] = [];
  let size = 0;
  const add = (p: Uint8Array) => {
    parts.push(p);
    size += p.length;
  };
  const text = (t: string) => add(Buffer.from(t));
  const between = Buffer.from(",\n");
  text("[\n");
  for (let i = 0; i < sessions.length; i++) {
    const s = sessions[i];
    const pieces = kept(s);
    if (pieces) {
      add(pieces[0]);
      text(lineageInElement(s.lineage));
      add(pieces[1]);
    } else text(jsonElement(summaryToJson(s)));
    if (i + 1 < sessions.length) add(between);
    else text("\n]\n");
    if (size >= 1 << 20) {
      writeBytes(Buffer.concat(parts, size));
      parts = [];
      size = 0;
    }
  }
  if (size) writeBytes(Buffer.concat(parts, size));
}

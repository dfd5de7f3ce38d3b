import type { SessionSummary } from "../../model/types.js";
import { jsonElement, lineageInElement, safeJson, summaryToJson } from "../../model/summary-json.js";

export { safeJson };

/**
 * `list --json` of these summaries: safeJson(sessions.map(summaryToJson)) and a newline, the
 * same text, written in pieces of about a megabyte (never the whole array as one string); where
 * `kept` has a summary's element (the persistent index's UTF-8 bytes, without the
 * lineage) that is written with the lineage put in, instead of made again. As bytes to
 * `writeBytes` when given, else as text to `write`.
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

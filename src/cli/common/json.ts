import type { SessionSummary } from "../../model/types.js";
import { jsonElement, lineageInElement, safeJson, summaryToJson, type ListPieces } from "../../model/summary-json.js";

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
 * but where `kept` has a summary's element (the persistent index's, without the lineage)
 * that is written with the lineage put in, instead of made again.
 */
export function writeSummariesJson(
  sessions: readonly SessionSummary[],
  kept: (s: SessionSummary) => ListPieces | undefined,
  write: (text: string) => void,
): void {
  if (sessions.length === 0) {
    write("[]\n");
    return;
  }
  let chunk = "[\n";
  for (let i = 0; i < sessions.length; i++) {
    const s = sessions[i];
    const pieces = kept(s);
    chunk +=
      (pieces ? pieces[0] + lineageInElement(s.lineage) + pieces[1] : jsonElement(summaryToJson(s))) +
      (i + 1 < sessions.length ? ",\n" : "\n]\n");
    if (chunk.length >= 1 << 20) {
      write(chunk);
      chunk = "";
    }
  }
  if (chunk) write(chunk);
}

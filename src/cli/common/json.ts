import type { SessionSummary } from "../../model/types.js";

const iso = (d: Date) => (Number.isNaN(d.getTime()) ? null : d.toISOString());

/** A summary as `list --json` prints it: pi's SessionInfo fields first, dates as ISO strings. */
export function summaryToJson(s: SessionSummary): Record<string, unknown> {
  return {
    path: s.path,
    id: s.id,
    cwd: s.cwd,
    name: s.name ?? null,
    parentSessionPath: s.parentSessionPath ?? null,
    created: iso(s.created),
    modified: iso(s.modified),
    messageCount: s.messageCount,
    firstMessage: s.firstMessage,
    bytes: s.bytes,
    entryCount: s.entryCount,
    leafCount: s.leafCount,
    labelCount: s.labelCount,
    models: s.models,
    tokens: s.tokens,
    cost: s.cost,
    version: s.version,
    lineage: s.lineage,
    warnings: s.warnings,
  };
}

/**
 * JSON.stringify, with C1 controls (U+0080–U+009F) escaped too: JSON leaves them raw, and
 * some terminals act on U+009B (CSI) when the output is printed to a screen.
 */
export function safeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /[\u0080-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

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
    chunk += "  " + safeJson(toJson(items[i])).replace(/\n/g, "\n  ") + (i + 1 < items.length ? ",\n" : "\n]\n");
    if (chunk.length >= 1 << 20) {
      write(chunk);
      chunk = "";
    }
  }
  if (chunk) write(chunk);
}

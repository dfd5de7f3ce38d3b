import type { SessionSummary } from "../model/types.js";

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

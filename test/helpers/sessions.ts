import { cwdFolderName } from "../../src/store/scope.js";
import type { SessionProbe, SessionSummary } from "../../src/model/types.js";

const BASE = Date.parse("2025-01-15T12:00:00Z");

let seq = 0;

/** A complete, plausible summary; override what the test cares about. */
export function makeSummary(over: Partial<SessionSummary> = {}): SessionSummary {
  const n = ++seq;
  const id = over.id ?? `0000000${n}-aaaa-4bbb-8ccc-${String(n).padStart(12, "0")}`;
  const cwd = over.cwd ?? "/home/u/proj";
  const created = over.created ?? new Date(BASE - n * 60_000);
  const modified = over.modified ?? new Date(created.getTime() + 30_000);
  return {
    // In its project's folder of the default store, as pi lays it out.
    path: over.path ?? `/store/${cwdFolderName(cwd)}/2025-01-15T12-00-00-000Z_${id}.jsonl`,
    id,
    cwd,
    created,
    modified,
    messageCount: 4,
    firstMessage: `message ${n}`,
    bytes: 2048,
    mtimeMs: modified.getTime(),
    version: 3,
    entryCount: 6,
    leafCount: 1,
    labelCount: 0,
    models: ["anthropic/claude-sonnet-4"],
    tokens: { input: 100, output: 50, cacheRead: 0, cacheWrite: 0, total: 150 },
    cost: 0.0123,
    warnings: [],
    lineage: { status: "none" },
    ...over,
  };
}

export function makeProbe(over: Partial<SessionProbe> = {}): SessionProbe {
  const s = makeSummary();
  return {
    path: s.path,
    id: s.id,
    cwd: s.cwd,
    created: s.created,
    firstMessage: s.firstMessage,
    bytes: s.bytes,
    mtimeMs: s.mtimeMs,
    ...over,
  };
}

/** n summaries in one folder, most recent first. */
export function makeSessions(n: number, over: Partial<SessionSummary> = {}): SessionSummary[] {
  const out: SessionSummary[] = [];
  for (let i = 0; i < n; i++) {
    const modified = new Date(BASE - i * 3_600_000);
    out.push(makeSummary({ modified, mtimeMs: modified.getTime(), firstMessage: `session ${i}`, ...over }));
  }
  return out;
}

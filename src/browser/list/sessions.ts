import type { Diagnostic, SessionProbe, SessionSummary } from "../../model/types.js";

/** A session as the list holds it: a full summary, or a provisional one built from a probe. */
export interface ListedSession extends SessionSummary {
  /** Built from a header probe; counts and models are not known yet. */
  provisional?: true;
  /** Why the full scan could not read it (the row stays, marked). */
  unreadable?: string;
  /**
   * The machine it lives on (`ssh NAME`), for a session of another machine's store: its
   * `path` is then this machine's copy of it (src/remote), `remotePath` its path there.
   */
  host?: string;
  remotePath?: string;
}

export type SessionMap = ReadonlyMap<string, ListedSession>;

const NO_TOKENS = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };

export function fromProbe(p: SessionProbe): ListedSession {
  return {
    path: p.path,
    id: p.id,
    cwd: p.cwd,
    name: p.name,
    parentSessionPath: p.parentSessionPath,
    created: p.created,
    modified: new Date(p.mtimeMs),
    messageCount: 0,
    firstMessage: p.firstMessage ?? "",
    bytes: p.bytes,
    mtimeMs: p.mtimeMs,
    version: 0,
    entryCount: 0,
    leafCount: 0,
    labelCount: 0,
    models: [],
    tokens: NO_TOKENS,
    cost: 0,
    warnings: [],
    lineage: { status: "none" },
    provisional: true,
  };
}

/**
 * Merge one batch into the map (a new Map; the old one is not touched).
 * Probes only fill gaps: a summary is never overwritten by a later probe.
 */
export function mergeBatch(
  prev: SessionMap,
  probes: readonly SessionProbe[] = [],
  summaries: readonly SessionSummary[] = [],
  diagnostics: readonly Diagnostic[] = [],
): SessionMap {
  if (probes.length === 0 && summaries.length === 0 && diagnostics.length === 0) return prev;
  const next = new Map(prev);
  for (const p of probes) if (!next.has(p.path)) next.set(p.path, fromProbe(p));
  for (const s of summaries) next.set(s.path, s);
  for (const d of diagnostics) {
    const s = next.get(d.path);
    if (s && d.kind === "unreadable") next.set(d.path, { ...s, unreadable: d.reason });
    // Its header probe showed it; the full read found what keeps pi from listing it.
    else if (s && d.kind === "not-listed-by-pi") next.delete(d.path);
  }
  return next;
}

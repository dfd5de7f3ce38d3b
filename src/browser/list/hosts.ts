import type { ListedSession, SessionMap } from "./sessions.js";

/*
 * Other machines in the list (src/remote does the talking): what the list knows of each
 * host, and its rows put in place of the ones it had.
 */

/**
 * "connecting": no answer yet (its kept rows, if any, are shown); "live": it answered this
 * run; "unreachable": it did not answer in time, or could not (its kept rows stay, read-only).
 */
export type HostState = "connecting" | "live" | "unreachable";

export interface HostView {
  name: string;
  state: HostState;
  /** When the rows shown were the host's answer (ms); absent while it has none. */
  at?: number;
  /** Why it is unreachable (one line, sanitized already). */
  why?: string;
  /** Why the usage view cannot count its sessions (its pi-sessions sends no usage), sanitized already. */
  noUsage?: string;
}

/** What a host said: its state, and its rows when they changed. */
export interface HostUpdate {
  host: HostView;
  sessions?: readonly ListedSession[];
}

/** The sessions with each host's in `rows` replaced by those (one pass, however many hosts). */
export function withHostRows(sessions: SessionMap, rows: ReadonlyMap<string, readonly ListedSession[]>): SessionMap {
  const next = new Map<string, ListedSession>();
  for (const [k, v] of sessions) if (v.host === undefined || !rows.has(v.host)) next.set(k, v);
  for (const list of rows.values()) for (const r of list) next.set(r.path, r);
  return next;
}

/**
 * Why a write to this session cannot be made now (its host is not answering), or undefined.
 * `tryConnecting`: ssh may still reach a host that has not answered yet (a resume tries).
 */
export function readOnlyReason(
  hosts: readonly HostView[] | undefined,
  s: { host?: string } | undefined,
  tryConnecting = false,
): string | undefined {
  if (!s?.host) return undefined;
  const h = hosts?.find((x) => x.name === s.host);
  if (h?.state === "live" || (tryConnecting && h?.state === "connecting")) return undefined;
  return h?.state === "unreachable"
    ? `${s.host} is unreachable: its kept rows are read-only`
    : `${s.host} has not answered yet: its kept rows are read-only until it does`;
}

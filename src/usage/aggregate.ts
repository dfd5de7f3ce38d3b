import type { SessionSummary, UsageSlice } from "../model/types.js";

/*
 * Usage totals (pi 1.5.2's /session rule, as the scan's summaries carry them) over a set
 * of sessions, grouped by local day, folder or model. Pure: the `stats` command and the
 * browser's usage view (`U`) both draw from it.
 */

export type UsageBy = "day" | "folder" | "model";
export const USAGE_BYS: readonly UsageBy[] = ["day", "folder", "model"];

export interface UsageAmount {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** input + output + cacheRead + cacheWrite, as pi's /session counts them. */
  total: number;
  /** Dollars. */
  cost: number;
}

export interface ModelShare {
  model: string;
  amount: UsageAmount;
}

export interface UsageGroup {
  /** The day (YYYY-MM-DD, "" when the entries had no valid time), folder or model ("" unknown). */
  key: string;
  /** Sessions with usage in this group. */
  sessions: number;
  amount: UsageAmount;
  /** The group's usage split by model, the largest first. */
  models: ModelShare[];
}

export interface UsageReport {
  by: UsageBy;
  since?: string;
  /** Sessions looked at (read in full). */
  sessions: number;
  /** Sessions with usage counted (after `since`). */
  withUsage: number;
  /** Sessions not read in full yet (the browser's scan is still going): not counted. */
  pending: number;
  total: UsageAmount;
  groups: UsageGroup[];
  /** Every model over all groups, the largest first. */
  models: ModelShare[];
}

export type UsageSource = Pick<SessionSummary, "cwd" | "usage"> & { provisional?: true };

export function zeroAmount(): UsageAmount {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0, cost: 0 };
}

function add(a: UsageAmount, s: UsageSlice): void {
  a.input += s.input;
  a.output += s.output;
  a.cacheRead += s.cacheRead;
  a.cacheWrite += s.cacheWrite;
  a.total = a.input + a.output + a.cacheRead + a.cacheWrite;
  a.cost += s.cost;
}

/** Larger cost first, then more tokens, then by name: a stable order for equal amounts. */
function byAmount<T extends { amount: UsageAmount }>(key: (x: T) => string) {
  return (a: T, b: T) =>
    b.amount.cost - a.amount.cost ||
    b.amount.total - a.amount.total ||
    (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
}

interface Acc {
  amount: UsageAmount;
  sessions: number;
  lastSession: number;
  models: Map<string, UsageAmount>;
}

export function aggregateUsage(
  sessions: Iterable<UsageSource>,
  by: UsageBy,
  opts: { since?: string } = {},
): UsageReport {
  const groups = new Map<string, Acc>();
  const models = new Map<string, UsageAmount>();
  const total = zeroAmount();
  let looked = 0;
  let withUsage = 0;
  let pending = 0;
  for (const s of sessions) {
    if (s.provisional || !s.usage) {
      pending++;
      continue;
    }
    looked++;
    let counted = false;
    for (const slice of s.usage) {
      // Days compare as text: YYYY-MM-DD sorts as dates; an undated slice is never "since".
      if (opts.since !== undefined && (slice.day === "" || slice.day < opts.since)) continue;
      counted = true;
      const key = by === "day" ? slice.day : by === "model" ? slice.model : s.cwd;
      let g = groups.get(key);
      if (!g) {
        g = { amount: zeroAmount(), sessions: 0, lastSession: -1, models: new Map() };
        groups.set(key, g);
      }
      add(g.amount, slice);
      if (g.lastSession !== looked) {
        g.lastSession = looked;
        g.sessions++;
      }
      let gm = g.models.get(slice.model);
      if (!gm) g.models.set(slice.model, (gm = zeroAmount()));
      add(gm, slice);
      let m = models.get(slice.model);
      if (!m) models.set(slice.model, (m = zeroAmount()));
      add(m, slice);
      add(total, slice);
    }
    if (counted) withUsage++;
  }
  const shares = (m: Map<string, UsageAmount>): ModelShare[] =>
    [...m].map(([model, amount]) => ({ model, amount })).sort(byAmount<ModelShare>((x) => x.model));
  const list: UsageGroup[] = [...groups].map(([key, g]) => ({
    key,
    sessions: g.sessions,
    amount: g.amount,
    models: shares(g.models),
  }));
  if (by === "day") {
    // Newest day first; undated usage last.
    list.sort((a, b) => (a.key === "" ? 1 : b.key === "" ? -1 : a.key < b.key ? 1 : a.key > b.key ? -1 : 0));
  } else {
    list.sort(byAmount<UsageGroup>((g) => g.key));
  }
  return { by, since: opts.since, sessions: looked, withUsage, pending, total, groups: list, models: shares(models) };
}

/** How a group's key reads on screen. */
export function groupLabel(by: UsageBy, key: string): string {
  if (key !== "") return key;
  return by === "day" ? "(no date)" : by === "model" ? "(unknown model)" : "(no folder)";
}

export function modelLabel(model: string): string {
  return model || "(unknown model)";
}

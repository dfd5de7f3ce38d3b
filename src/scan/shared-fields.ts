import type { SessionSummary } from "../model/types.js";
import { NO_LINEAGE } from "../store/lineage.js";

/**
 * Equal fields of many summaries made one value each: the folder, the model and label lists,
 * the warnings, a lineage of none, each usage slice's day and model. A snapshot's summaries
 * are parsed row by row, each with its own copy: at 50,000 sessions (400 folders, ~100 model
 * lists) these copies were a fifth of the summaries' heap (72 → 57 MB), held for as long as
 * the browser runs (sharing them costs ~0.1 s once, after the first rows). Summaries are
 * never changed in place (a change is a new summary), so sharing a field is safe; each is
 * replaced by an equal one.
 */
export function shareFields(summaries: ReadonlyArray<SessionSummary | null | undefined>): void {
  const strings = new Map<string, string>();
  const lists = new Map<string, string[]>();
  const str = (s: string): string => {
    const had = strings.get(s);
    if (had !== undefined) return had;
    strings.set(s, s);
    return s;
  };
  const list = (a: string[]): string[] => {
    // Exact: "" only for [], JSON (starting "[", each item's type kept) for any other.
    const key = a.length === 0 ? "" : JSON.stringify(a);
    const had = lists.get(key);
    if (had !== undefined) return had;
    lists.set(key, a);
    return a;
  };
  for (const s of summaries) {
    if (!s) continue;
    s.cwd = str(s.cwd);
    if (Array.isArray(s.models)) s.models = list(s.models);
    if (Array.isArray(s.labels)) s.labels = list(s.labels);
    if (Array.isArray(s.warnings)) s.warnings = list(s.warnings);
    if (s.lineage?.status === "none" && Object.keys(s.lineage).length === 1) s.lineage = NO_LINEAGE;
    if (Array.isArray(s.usage))
      for (const u of s.usage) {
        if (typeof u.day === "string") u.day = str(u.day);
        if (typeof u.model === "string") u.model = str(u.model);
      }
  }
}

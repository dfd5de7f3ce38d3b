import { parseDay } from "../search/query.js";

export { dayKey, LocalDays } from "../model/local-day.js";
import { dayKey } from "../model/local-day.js";

/**
 * The first day `--since` counts, as `YYYY-MM-DD`: a real day as written, `today`, or `Nd`
 * (the last N days, today included); undefined for anything else. Days are whole here, so
 * `7d` means seven calendar days rather than the search's last 7×24 hours.
 */
export function parseSinceDay(text: string, now: Date = new Date()): string | undefined {
  if (parseDay(text) !== undefined) return text;
  if (text.toLowerCase() === "today") return dayKey(now);
  const m = /^(\d{1,6})d$/i.exec(text);
  if (m && Number(m[1]) > 0)
    return dayKey(new Date(now.getFullYear(), now.getMonth(), now.getDate() - Number(m[1]) + 1));
  return undefined;
}

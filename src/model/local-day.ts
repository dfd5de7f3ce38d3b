/**
 * Local calendar days as `YYYY-MM-DD`. The scan asks for the day of every usage it meets,
 * mostly of neighbouring times, so the bounds of the last day found are kept and a time
 * inside them costs two comparisons instead of a Date.
 */
export class LocalDays {
  private start = 0;
  private end = -1;
  private key = "";

  /** The local day of an epoch-ms time; "" for no valid time. */
  of(ms: number): string {
    if (!Number.isFinite(ms)) return "";
    if (ms >= this.start && ms < this.end) return this.key;
    const d = new Date(ms);
    if (Number.isNaN(d.getTime())) return "";
    const start = new Date(d.getFullYear(), d.getMonth(), d.getDate());
    // The next local midnight (a day is 23 or 25 hours when the clocks change).
    const end = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1);
    this.start = start.getTime();
    this.end = end.getTime();
    this.key = dayKey(d);
    return this.key;
  }
}

export function dayKey(d: Date): string {
  const y = d.getFullYear();
  const yyyy = y >= 0 && y <= 9999 ? String(y).padStart(4, "0") : String(y);
  return `${yyyy}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

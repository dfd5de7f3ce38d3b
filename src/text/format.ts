/** Compact human formats shared by the CLI table and the browser. */

/** pi's picker ages: now, Nm, Nh, Nd, Nw, Nmo, Ny. */
export function formatAge(date: Date, now = Date.now()): string {
  return formatAgeOf(date.getTime(), now);
}

/** formatAge of a date's time (NaN: none), without a Date: a kept list's 50,000 ages. */
export function formatAgeOf(t: number, now = Date.now()): string {
  if (Number.isNaN(t)) return "?";
  const s = Math.max(0, (now - t) / 1000);
  if (s < 60) return "now";
  const m = s / 60;
  if (m < 60) return `${Math.floor(m)}m`;
  const h = m / 60;
  if (h < 24) return `${Math.floor(h)}h`;
  const d = h / 24;
  if (d < 7) return `${Math.floor(d)}d`;
  if (d < 30) return `${Math.floor(d / 7)}w`;
  if (d < 365) return `${Math.floor(d / 30)}mo`;
  return `${Math.floor(d / 365)}y`;
}

/** "5m ago", "just now" (never "now ago"), "?" for an invalid date: an age in a sentence. */
export function formatAgo(date: Date, now = Date.now()): string {
  const age = formatAge(date, now);
  return age === "now" ? "just now" : age === "?" ? "?" : `${age} ago`;
}

/** 7.9 KB; `compact` gives at most 5 columns for list rows: 512B, 1.5K, 34K, 2.0G. */
export function formatBytes(n: number, compact = false): string {
  if (n < 1024) return compact ? `${n}B` : `${n} B`;
  const units = compact ? ["K", "M", "G", "T"] : [" KB", " MB", " GB", " TB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)}${units[i]}`;
}

/** "1 branch", "2 branches", "1,234 sessions": a count and its noun, the plural when not one. */
export function plural(n: number, one: string, many = /(s|x|ch|sh)$/.test(one) ? `${one}es` : `${one}s`): string {
  return `${groupDigits(n)} ${n === 1 ? one : many}`;
}

/** 346,884,995: digits grouped by thousands, as people read them (never in --json). */
export function groupDigits(n: number): string {
  // A whole number by hand: toLocaleString's first call starts ICU's number formatting
  // (~15 ms, on the first frame); the rest (fractions, -0) as before.
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) {
    // Three digits or fewer have nothing to group (most message counts: 50,000 of them in a `list`).
    const s = String(n);
    return n > -1000 && n < 1000 ? s : s.replace(/\B(?=(\d{3})+$)/g, ",");
  }
  return Number.isFinite(n) ? n.toLocaleString("en-US", { maximumFractionDigits: 6 }) : String(n);
}

/** 1,774.01 with `decimals` 2: toFixed's digits, the whole part grouped by thousands. */
export function groupFixed(n: number, decimals: number): string {
  const fixed = n.toFixed(decimals);
  // toFixed gives an exponent from 1e21 on: nothing to group then.
  if (!/^-?\d+(\.\d+)?$/.test(fixed)) return fixed;
  const [whole, frac] = fixed.split(".");
  return whole.replace(/\B(?=(\d{3})+$)/g, ",") + (frac === undefined ? "" : `.${frac}`);
}

/** 950, 1.2k, 34k, 1.8M, 1.8B: a token count in at most 5 columns. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  if (n < 1_000_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  return `${(n / 1_000_000_000).toFixed(1)}B`;
}

/** A session's cost in the preview: four decimals under a dollar, "—" when it recorded none. */
export function formatSessionCost(usd: number): string {
  return usd === 0 ? "—" : `$${groupFixed(usd, usd < 1 ? 4 : 2)}`;
}

export function formatCost(usd: number): string {
  if (usd === 0) return "$0";
  if (usd < 0.01) return "<$0.01";
  return `$${groupFixed(usd, 2)}`;
}

/** Dollars to the millionth, trailing zeros dropped ($0.043, $1,774.012345): a session's exact cost. */
export function formatCostExact(usd: number): string {
  const s = groupFixed(usd, 6);
  return `$${s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s}`;
}

/** A local date-time, minute precision: 2026-03-01 09:28. */
export function formatDateTime(date: Date): string {
  const t = date.getTime();
  if (Number.isNaN(t)) return "?";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())} ${p(date.getHours())}:${p(date.getMinutes())}`;
}

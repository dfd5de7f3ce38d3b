import { foldAccents } from "./fold.js";
import { closeMatch } from "./fuzzy.js";
import type { Query } from "./query.js";

/** [start, end) in UTF-16 units of the text given. */
export type Range = readonly [number, number];

/**
 * What a piece of shown text is, which decides how a word may match it (as the search
 * does): a name or a folder also by scattered letters, message text only exactly.
 */
export type FieldKind = "name" | "cwd" | "text";

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function allMatches(re: RegExp, text: string, out: [number, number][]): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    out.push([m.index, m.index + m[0].length]);
  }
}

/** Sorted, with overlapping and touching ranges joined. */
function merge(ranges: [number, number][]): Range[] {
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/**
 * Where the query's terms show in `text` (a row's title, a folder, a snippet), for
 * highlighting. Pure: the UI decides how a range looks. Words and phrases mark every
 * case-insensitive occurrence; a word with none marks its fuzzy letters in a name or a
 * folder; re: marks every match; name: and cwd: mark their text in their own field.
 */
export function matchRanges(query: Query, shown: string, field: FieldKind): Range[] {
  if (!shown || query.terms.length === 0) return [];
  // Terms are accent-folded; folding keeps positions, so ranges found here are the shown text's.
  const text = foldAccents(shown);
  const out: [number, number][] = [];
  for (const t of query.terms) {
    switch (t.kind) {
      case "word": {
        const before = out.length;
        allMatches(new RegExp(escape(t.text), t.cased ? "gu" : "giu"), text, out);
        if (out.length === before && field !== "text" && !t.exact && !t.cased) {
          const m = closeMatch(t.text, text);
          if (m) for (const p of m.positions) out.push([p, p + 1]);
        }
        break;
      }
      case "phrase": {
        const words = t.text.trim().split(/\s+/).filter(Boolean).map(escape);
        if (words.length) allMatches(new RegExp(words.join("\\s+"), t.cased ? "gu" : "giu"), text, out);
        break;
      }
      case "regex":
        // An empty match marks nothing: look again one unit on.
        for (let hit = t.re.find(text); hit;) {
          if (hit.len > 0) out.push([hit.at, hit.at + hit.len]);
          const next = hit.at + Math.max(hit.len, 1);
          hit = next > text.length ? null : t.re.find(text, next);
        }
        break;
      case "field":
        if (t.text && ((t.field === "name" && field === "name") || (t.field === "cwd" && field === "cwd"))) {
          allMatches(new RegExp(escape(t.text), "giu"), text, out);
        }
        break;
      case "never":
        break;
    }
  }
  return merge(out);
}

/** `text` cut into plain and matched pieces, in order; what a renderer walks. */
export function splitByRanges(text: string, ranges: readonly Range[]): { text: string; hit: boolean }[] {
  const out: { text: string; hit: boolean }[] = [];
  let at = 0;
  for (const [s, e] of ranges) {
    const start = Math.max(at, Math.min(s, text.length));
    const end = Math.min(e, text.length);
    if (end <= start) continue;
    if (start > at) out.push({ text: text.slice(at, start), hit: false });
    out.push({ text: text.slice(start, end), hit: true });
    at = end;
  }
  if (at < text.length) out.push({ text: text.slice(at), hit: false });
  return out;
}

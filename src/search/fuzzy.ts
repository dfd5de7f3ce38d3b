/*
 * Fuzzy matching as pi 1.5.2's session picker does it (pi-tui's fuzzyMatch): the query's
 * characters in order anywhere in the text, case-insensitively. Lower scores are better:
 * a character at the text's start or after a separator earns a bonus, consecutive
 * characters earn a growing bonus, gaps and late positions cost. When the query also
 * occurs contiguously, the best contiguous placement counts; an exact match is best.
 * "abc12" that fails is tried once more as "12abc" (and back), at a small cost.
 *
 * Besides pi's score this returns where the characters matched, for highlighting.
 */

export interface FuzzyResult {
  score: number;
  /** Indexes (UTF-16) into the text of the matched characters, ascending. */
  positions: number[];
}

const SEPARATOR = /[\s\-_./:]/;

function scorePositions(lower: string, positions: readonly number[]): number {
  let score = 0;
  let last = -1;
  let run = 0;
  for (const i of positions) {
    if (last === i - 1) {
      run++;
      score -= run * 5;
    } else {
      run = 0;
      if (last >= 0) score += (i - last - 1) * 2;
    }
    if (i === 0 || SEPARATOR.test(lower[i - 1])) score -= 10;
    score += i * 0.1;
    last = i;
  }
  return score;
}

function matchLower(query: string, lower: string): FuzzyResult | null {
  if (query.length === 0) return { score: 0, positions: [] };
  if (query.length > lower.length) return null;
  let positions: number[] = [];
  let from = 0;
  // Per UTF-16 unit, as pi does.
  for (let k = 0; k < query.length; k++) {
    const at = lower.indexOf(query[k], from);
    if (at === -1) return null;
    positions.push(at);
    from = at + 1;
  }
  let score = scorePositions(lower, positions);
  for (let start = lower.indexOf(query); start !== -1; start = lower.indexOf(query, start + 1)) {
    const run = Array.from({ length: query.length }, (_, k) => start + k);
    const s = scorePositions(lower, run);
    if (s < score) {
      score = s;
      positions = run;
    }
  }
  if (query === lower) score -= 100;
  return { score, positions };
}

/** pi's fuzzyMatch with the matched positions; null when the text does not hold the query. */
export function fuzzyMatch(query: string, text: string): FuzzyResult | null {
  const q = query.toLowerCase();
  const lower = text.toLowerCase();
  // (toLowerCase rarely changes a length, "İ"; positions are then approximate for highlighting.)
  const first = matchLower(q, lower);
  if (first) return first;
  const swapped = /^([a-z]+)([0-9]+)$/.exec(q) ?? /^([0-9]+)([a-z]+)$/.exec(q);
  if (!swapped) return null;
  const second = matchLower(swapped[2] + swapped[1], lower);
  return second && { score: second.score + 5, positions: second.positions };
}

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

export function scorePositions(lower: string, positions: readonly number[]): number {
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

/** "abc12" as "12abc" and back: what pi tries when the query as typed does not match. */
function swapped(q: string): string | undefined {
  const m = /^([a-z]+)([0-9]+)$/.exec(q) ?? /^([0-9]+)([a-z]+)$/.exec(q);
  return m ? m[2] + m[1] : undefined;
}

/** pi's fuzzyMatch with the matched positions; null when the text does not hold the query. */
export function fuzzyMatch(query: string, text: string): FuzzyResult | null {
  const q = query.toLowerCase();
  const lower = text.toLowerCase();
  // (toLowerCase rarely changes a length, "İ"; positions are then approximate for highlighting.)
  const first = matchLower(q, lower);
  if (first) return first;
  const other = swapped(q);
  if (other === undefined) return null;
  const second = matchLower(other, lower);
  return second && { score: second.score + 5, positions: second.positions };
}

/** Each UTF-16 unit of `q` in `lower`, in order: what matchLower needs to match at all. */
function unitsInOrder(q: string, lower: string): boolean {
  let from = 0;
  for (let k = 0; k < q.length; k++) {
    const at = lower.indexOf(q[k], from);
    if (at === -1) return false;
    from = at + 1;
  }
  return true;
}

/** Where a word starts: the text's start, after a separator, a lower→upper case change or a letter→digit change. */
function boundaries(text: string): boolean[] {
  const out = new Array<boolean>(text.length);
  for (let i = 0; i < text.length; i++) {
    const prev = text[i - 1];
    const cur = text[i];
    out[i] =
      i === 0 ||
      SEPARATOR.test(prev) ||
      (/[a-z]/.test(prev) && /[A-Z]/.test(cur)) ||
      (/\p{L}/u.test(prev) && /[0-9]/.test(cur));
  }
  return out;
}

/**
 * The query's characters occur in the text in order: what every scattered match needs.
 * Checked first, with indexOf, so the text of a session that cannot match costs no
 * placement tables (typing over 10,000 sessions measured 70–90 ms a key without it).
 */
function inOrder(q: string, lower: string): boolean {
  let at = 0;
  for (const ch of q) {
    const i = lower.indexOf(ch, at);
    if (i === -1) return false;
    at = i + ch.length;
  }
  return true;
}

/**
 * Scattered letters that read as an abbreviation, fzf-style: the query's characters in
 * order, the first at the start of a word and each next one either right after the one
 * before or at the start of a word (`rcp` in react-component-props, `s5` in session-5).
 * Letters strewn through a long path (`keyboard` over /home/kev/you/build/…) do not
 * count. Case-insensitive; null when there is no such placement. Linear in query × text.
 */
export function abbreviationMatch(query: string, text: string): FuzzyResult | null {
  const q = query.toLowerCase();
  const lower = text.toLowerCase();
  const n = lower.length;
  const m = q.length;
  if (m === 0) return { score: 0, positions: [] };
  if (m > n || !inOrder(q, lower)) return null;
  const start = boundaries(text);
  // ok[k][p]: q[k..] can be placed with q[k] at p. Built from the last character back:
  // q[k+1] goes right after p, or at a word start further on.
  const oks: boolean[][] = new Array(m);
  for (let k = m - 1; k >= 0; k--) {
    const ok = new Array<boolean>(n).fill(false);
    const next = oks[k + 1];
    let startAfter = false;
    for (let p = n - 1; p >= 0; p--) {
      if (lower[p] === q[k]) ok[p] = !next || next[p + 1] === true || startAfter;
      if (next && next[p] && start[p]) startAfter = true;
    }
    oks[k] = ok;
  }
  let p = oks[0].findIndex((v, i) => v && start[i]);
  if (p < 0) return null;
  const positions = [p];
  for (let k = 1; k < m; k++) {
    const ok = oks[k];
    if (ok[p + 1]) p = p + 1;
    else {
      let q2 = p + 1;
      while (q2 < n && !(ok[q2] && start[q2])) q2++;
      if (q2 >= n) return null;
      p = q2;
    }
    positions.push(p);
  }
  return { score: scorePositions(lower, positions), positions };
}

/**
 * The letters a word may match scattered: an abbreviation (above), or a compact run in one
 * place: the first letter at a word start and no more letters skipped between the first
 * and the last than the query has (`dply` in deploy, `rfctr` in refactor). Anything looser
 * is noise over long names and paths, so it does not match.
 */
export function closeMatch(query: string, text: string): FuzzyResult | null {
  // Most texts hold not even the letters in order: said at once (ranking ten thousand
  // names and folders asks this of each), as both matches in closeMatchInFull would find in turn.
  const q = query.toLowerCase();
  const lower = text.toLowerCase();
  if (!unitsInOrder(q, lower)) {
    const other = swapped(q);
    if (other === undefined || !unitsInOrder(other, lower)) return null;
  }
  return closeMatchInFull(query, text);
}

/** closeMatch without its first look (what it must always agree with). */
export function closeMatchInFull(query: string, text: string): FuzzyResult | null {
  const abbreviation = abbreviationMatch(query, text);
  if (abbreviation) return abbreviation;
  const m = fuzzyMatch(query, text);
  if (!m || m.positions.length === 0) return null;
  const first = m.positions[0];
  const skipped = m.positions[m.positions.length - 1] - first + 1 - m.positions.length;
  const atStart = first === 0 || SEPARATOR.test(text[first - 1]);
  return atStart && skipped <= query.length ? m : null;
}

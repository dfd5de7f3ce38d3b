/*
 * Accent folding for search, as fzf does: `naive` finds `naïve`, `cafe` finds `café`.
 * Only Latin letters with diacritics are folded, one code unit for one, so positions found
 * in the folded text are positions in the original (for highlighting); other scripts are
 * left as they are (decomposing Hangul, say, would change lengths and match jamo).
 */

const LATIN_WITH_MARKS = /[\u00c0-\u024f\u1e00-\u1eff]/g;
/** The same, for a test: most text has none, and a test is a third of the cost of a replace that finds nothing. */
const ANY_LATIN_WITH_MARKS = new RegExp(LATIN_WITH_MARKS.source);

/** Each such character's folding, worked out once (String.prototype.normalize per character is slow). */
const folded = new Map<string, string>();

function foldChar(ch: string): string {
  let f = folded.get(ch);
  if (f === undefined) {
    const base = ch.normalize("NFD")[0];
    // ß, æ, ø and the like have no decomposition: they stay.
    f = base && base.length === 1 && base !== ch && base.charCodeAt(0) < 0x80 ? base : ch;
    folded.set(ch, f);
  }
  return f;
}

export function foldAccents(s: string): string {
  return ANY_LATIN_WITH_MARKS.test(s) ? s.replace(LATIN_WITH_MARKS, foldChar) : s;
}

import { foldedField, HELD, HELD_ELSEWHERE, HELD_IN_NAME, type MatchContext, type Searchable } from "./query.js";
import { rowFinder } from "./row-finder.js";

/*
 * The searched fields of many sessions (name, first message, folder, id), folded as
 * matchSession folds them, in one text: the sessions whose fields hold a word are found by
 * one scan of it, and only they are matched field by field (MatchContext.mayHold); the
 * rest can only match by letters scattered over a name or a folder. Folding ten thousand
 * first messages was most of ranking a store at each search; kept with the search rows
 * (src/cli/common/search-rows.ts), they are folded once.
 */

/** Between a session's fields, and between sessions (a match across one only sends a session to be matched field by field). */
const FIELD = "\u0001";
const SESSION = "\u0000";
/** Between sessions' parts (for a field text made of them in another form: the browser's). */
export const PART_SEPARATOR = SESSION;

export interface FieldText {
  text: string;
  /** Per session, the length of its part of `text` (its fields and their separators). */
  lengths: readonly number[];
}

/** One session's part of a field text (exported for a field text made of its parts in another form: the browser's). */
export const partOf = (s: Searchable) => [s.name ?? "", s.firstMessage, s.cwd, s.id].map(foldedField).join(FIELD);

/**
 * The sessions' field text; `had` gives a session's part where it is known already (that of
 * a field text made of the same session: fieldTextParts), the rest are folded.
 */
export function fieldTextOf(sessions: readonly Searchable[], had?: (s: Searchable) => string | undefined): FieldText {
  const parts = sessions.map((s) => had?.(s) ?? partOf(s));
  return { text: parts.join(SESSION), lengths: parts.map((p) => p.length) };
}

/** Each session's part of a field text made of them (in their order), or undefined when it is not theirs. */
export function fieldTextParts(ft: FieldText, sessions: readonly Searchable[]): Map<Searchable, string> | undefined {
  const starts = ft.lengths.length === sessions.length ? startsOf(ft) : undefined;
  if (!starts) return undefined;
  return new Map(sessions.map((s, i) => [s, ft.text.slice(starts[i], starts[i] + ft.lengths[i])]));
}

/** Where each session's part starts, or undefined when the lengths do not add up to the text (not a field text). */
function startsOf({ text, lengths }: FieldText): Int32Array | undefined {
  const starts = new Int32Array(lengths.length);
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    const n = lengths[i];
    if (!Number.isInteger(n) || n < 0) return undefined;
    starts[i] = at;
    at += n + 1;
  }
  return at - (lengths.length > 0 ? 1 : 0) === text.length ? starts : undefined;
}

/** The part holding position `at` (the last start at or before it). */
function partAt(starts: Int32Array, at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * A MatchContext's mayHold, nameHolds, foldedOf, whereHeld and placeOf for these sessions (the very objects the field text
 * was made of, in its order), or undefined when the field text is not theirs. A session it
 * does not know is asked of its fields.
 */
export function rankingContext(
  ft: FieldText,
  sessions: readonly Searchable[],
): Required<Pick<MatchContext, "mayHold" | "foldedOf" | "nameHolds" | "whereHeld" | "placeOf">> | undefined {
  const starts = ft.lengths.length === sessions.length ? startsOf(ft) : undefined;
  if (!starts) return undefined;
  const { text } = ft;
  const known = rowFinder(sessions);
  // By each session's place, not in sets of the sessions: a set asked of 50,000 objects
  // gives each an identity hash, which costs more than the lookups it saves.
  /** 1 for each holder of a word asked about (its fields may be read from its part). */
  const holder = new Uint8Array(sessions.length);
  /**
   * Per word asked about, for each session whose part holds it: HELD_IN_NAME when its first place in
   * the part is in the name (the first field: a word without a separator is within one field),
   * HELD_ELSEWHERE when elsewhere, HELD when that is not known (the part has not four fields).
   */
  const holders = new Map<string, Uint8Array>();
  const holdersOf = (word: string) => {
    let found = holders.get(word);
    if (found) return found;
    found = new Uint8Array(sessions.length);
    const whereKnown = !/[\u0000\u0001]/.test(word);
    let at = text.indexOf(word);
    while (at !== -1) {
      const i = partAt(starts, at);
      found[i] = whereKnown ? whereIn(i, at) : HELD;
      holder[i] = 1;
      // The next part: one holder is enough.
      at = i + 1 < starts.length ? text.indexOf(word, starts[i + 1]) : -1;
    }
    holders.set(word, found);
    return found;
  };
  /**
   * Where in part i a word's first place `at` is (whereKnown): in the name, elsewhere, or not
   * known. The name is the part's first field: it ends at the part's first separator when it
   * holds none itself (its folding adds none), whatever the other fields hold.
   */
  const whereIn = (i: number, at: number): number => {
    if ((sessions[i].name ?? "").includes(FIELD)) return HELD;
    const nameEnd = text.indexOf(FIELD, starts[i]);
    if (nameEnd < 0 || nameEnd >= starts[i] + ft.lengths[i]) return HELD;
    return at < nameEnd ? HELD_IN_NAME : HELD_ELSEWHERE;
  };
  return {
    mayHold(word, s) {
      if (!word) return true;
      const i = known(s);
      return i < 0 || holdersOf(word)[i] !== 0;
    },
    nameHolds(word, s) {
      if (!word) return undefined;
      const i = known(s);
      if (i < 0) return undefined;
      const where = holdersOf(word)[i];
      return where === HELD_IN_NAME ? true : where === HELD_ELSEWHERE ? false : undefined;
    },
    whereHeld: (word) => holdersOf(word),
    placeOf: known,
    // A holder's fields from its part: exactly four when no field holds a separator itself.
    foldedOf(s) {
      const i = known(s);
      if (i < 0 || holder[i] !== 1) return undefined;
      const fields = text.slice(starts[i], starts[i] + ft.lengths[i]).split(FIELD);
      return fields.length === 4 ? fields : undefined;
    },
  };
}

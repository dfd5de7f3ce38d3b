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
  lengths: ArrayLike<number>;
}

/**
 * The same field text as UTF-8, searched as bytes without being decoded (a command's kept
 * rows: 10 MB of it at 50,000 sessions, which took ~50 ms to decode, or twice the bytes as
 * UTF-16). Only for a well-formed text (no lone half of a pair, which UTF-8 cannot hold):
 * there, the UTF-8 of a well-formed word is found exactly where the word is in the text.
 */
export interface FieldBytes {
  bytes: Buffer;
  /** Per session, the length in bytes of its part. */
  lengths: ArrayLike<number>;
}

/** A field text as text or as bytes. */
export type AnyFieldText = FieldText | FieldBytes;

export const isFieldBytes = (ft: AnyFieldText): ft is FieldBytes => "bytes" in ft;

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

/**
 * The field text as bytes (FieldBytes), `had` giving a session's part where it is known
 * already (its UTF-8), the rest folded; undefined when the text is not well-formed.
 */
export function fieldBytesOf(
  sessions: readonly Searchable[],
  had?: (s: Searchable) => Uint8Array | undefined,
): FieldBytes | undefined {
  const parts: Uint8Array[] = [];
  for (const s of sessions) {
    let part = had?.(s);
    if (!part) {
      const text = partOf(s);
      if (!text.isWellFormed()) return undefined;
      part = Buffer.from(text, "utf8");
    }
    parts.push(part);
  }
  const lengths = Int32Array.from(parts, (p) => p.length);
  const bytes = Buffer.allocUnsafe(parts.reduce((n, p) => n + p.length + 1, 0) - (parts.length > 0 ? 1 : 0));
  let at = 0;
  parts.forEach((p, i) => {
    if (i > 0) bytes[at++] = 0;
    bytes.set(p, at);
    at += p.length;
  });
  return { bytes, lengths };
}

/**
 * The field text of `sessions`, each of `kept` (whose field text `ft` is, in their order)
 * taking its part from it, the rest folded: as bytes where `ft` is and the new parts are
 * well-formed, else as text (src/cli/commands/search.ts: the rows kept of a store before
 * it changed, and its changed files). Undefined when `ft` is not `kept`'s.
 */
export function fieldTextAgain(
  ft: AnyFieldText,
  kept: readonly Searchable[],
  sessions: readonly Searchable[],
): AnyFieldText | undefined {
  if (!isFieldBytes(ft)) {
    const parts = fieldTextParts(ft, kept);
    return parts && fieldTextOf(sessions, (s) => parts.get(s));
  }
  const starts = ft.lengths.length === kept.length ? startsOf(ft) : undefined;
  if (!starts) return undefined;
  const at = new Map(kept.map((s, i) => [s, i]));
  const part = (i: number) => ft.bytes.subarray(starts[i], starts[i] + ft.lengths[i]);
  const had = (s: Searchable) => {
    const i = at.get(s);
    return i === undefined ? undefined : part(i);
  };
  return (
    fieldBytesOf(sessions, had) ??
    fieldTextOf(sessions, (s) => {
      const i = at.get(s);
      return i === undefined ? undefined : part(i).toString("utf8");
    })
  );
}

/** The field text as bytes, as a command keeps it: UTF-8 of the very text (undefined when not well-formed). */
export function asFieldBytes(ft: AnyFieldText): FieldBytes | undefined {
  if (isFieldBytes(ft)) return ft;
  if (!ft.text.isWellFormed()) return undefined;
  const lengths = new Int32Array(ft.lengths.length);
  const starts = startsOf(ft);
  if (!starts) return undefined;
  for (let i = 0; i < lengths.length; i++)
    lengths[i] = Buffer.byteLength(ft.text.slice(starts[i], starts[i] + ft.lengths[i]), "utf8");
  return { bytes: Buffer.from(ft.text, "utf8"), lengths };
}

/** How long a field text is: in characters, or in bytes. */
const sizeOf = (ft: AnyFieldText) => (isFieldBytes(ft) ? ft.bytes.length : ft.text.length);

/** Where each session's part starts, or undefined when the lengths do not add up to the text (not a field text). */
function startsOf(ft: AnyFieldText): Int32Array | undefined {
  const { lengths } = ft;
  const starts = new Int32Array(lengths.length);
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    const n = lengths[i];
    if (!Number.isInteger(n) || n < 0) return undefined;
    starts[i] = at;
    at += n + 1;
  }
  return at - (lengths.length > 0 ? 1 : 0) === sizeOf(ft) ? starts : undefined;
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
  ft: AnyFieldText,
  sessions: readonly Searchable[],
): Required<Pick<MatchContext, "mayHold" | "foldedOf" | "nameHolds" | "whereHeld" | "placeOf">> | undefined {
  const starts = ft.lengths.length === sessions.length ? startsOf(ft) : undefined;
  if (!starts) return undefined;
  const { lengths } = ft;
  const text = searched(ft);
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
    holders.set(word, found);
    const find = text.finder(word);
    // Not to be looked for as bytes (a lone half of a pair): any session may hold it.
    if (!find) {
      found.fill(HELD);
      holder.fill(1);
      return found;
    }
    const whereKnown = !/[\u0000\u0001]/.test(word);
    let at = find(0);
    while (at !== -1) {
      const i = partAt(starts, at);
      found[i] = whereKnown ? whereIn(i, at) : HELD;
      holder[i] = 1;
      // The next part: one holder is enough.
      at = i + 1 < starts.length ? find(starts[i + 1]) : -1;
    }
    return found;
  };
  /**
   * Where in part i a word's first place `at` is (whereKnown): in the name, elsewhere, or not
   * known. The name is the part's first field: it ends at the part's first separator when it
   * holds none itself (its folding adds none), whatever the other fields hold.
   */
  const whereIn = (i: number, at: number): number => {
    if ((sessions[i].name ?? "").includes(FIELD)) return HELD;
    const nameEnd = text.fieldEnd(starts[i]);
    if (nameEnd < 0 || nameEnd >= starts[i] + lengths[i]) return HELD;
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
      const fields = text.part(starts[i], starts[i] + lengths[i]).split(FIELD);
      return fields.length === 4 ? fields : undefined;
    },
  };
}

/** A field text as rankingContext reads it, whether text or bytes: positions are in its own units. */
interface Searched {
  /** Where the word is first at or after a position (-1: nowhere); undefined when it cannot be looked for so. */
  finder(word: string): ((from: number) => number) | undefined;
  /** Where the first field separator at or after a position is (-1: none). */
  fieldEnd(from: number): number;
  /** The text between two positions. */
  part(start: number, end: number): string;
}

function searched(ft: AnyFieldText): Searched {
  if (!isFieldBytes(ft)) {
    const { text } = ft;
    return {
      finder: (word) => (from) => text.indexOf(word, from),
      fieldEnd: (from) => text.indexOf(FIELD, from),
      part: (start, end) => text.slice(start, end),
    };
  }
  const { bytes } = ft;
  return {
    finder(word) {
      // A lone half of a pair matches half of one in the text, which its UTF-8 cannot say.
      if (!word.isWellFormed()) return undefined;
      const b = Buffer.from(word, "utf8");
      return (from) => bytes.indexOf(b, from);
    },
    fieldEnd: (from) => bytes.indexOf(1, from),
    part: (start, end) => bytes.toString("utf8", start, end),
  };
}

import { fieldTextParts, rankingContext } from "../../search/field-text.js";
import { asBytes, bytesText, fromBytes, type ListText } from "./fieldBytes.js";
import type { MatchContext, Searchable } from "../../search/query.js";

/*
 * The list's sessions matched by a word typed: their searched fields folded into one text
 * (src/search/field-text.ts), made when a word is first scored against them, so the sessions
 * holding a word are found by one scan of it and only they are matched field by field. At
 * 50,000 sessions a word in no field cost ~60 ms a key (each session's four fields asked),
 * one scan of the text ~2-12 ms. The fields are not kept folded per session (the text is
 * their folded copy), but for the sessions a word with a capital or a spaced phrase reaches.
 */

/**
 * The last field text made, and of which sessions: a store that changed (pi wrote, a batch
 * of the scan came) is a new list of mostly the same sessions, whose parts are taken from it
 * rather than folded again (~60 ms against ~250 ms at 50,000 sessions).
 */
let last: { list: readonly Searchable[]; text: ListText } | undefined;

function textOf(list: readonly Searchable[]): ListText {
  if (last?.list === list) return last.text;
  // Parts as bytes only (a text too long for bytes holds them as text: fieldBytes.ts).
  const had = last?.text.utf8 ? fieldTextParts(last.text, last.list) : undefined;
  last = undefined; // its parts are read; the old text is let go with them
  const text = bytesText(list, had);
  last = { list, text };
  return text;
}

/** Words asked of one ranking context before a new one (each keeps a byte per session per word). */
const WORDS_KEPT = 32;

/** The list's context, and a way to make its field text and ranking ahead of the first word. */
export type ListContext = MatchContext & {
  /** Makes the field text and its ranking now (done at the first word otherwise). */
  warm(): void;
  /** Lets go of what warm made when no word was asked of it since (its text as UTF-8 bytes: fieldBytes.ts). */
  cool(): void;
};

/** A context whose field text is made of `list` (in its order) on first need. */
export function listContext(list: readonly Searchable[]): ListContext {
  let text: ListText | undefined;
  let ranking: ReturnType<typeof rankingContext> | null = null;
  let words = new Set<string>();
  /** Made by warm, no word asked since. */
  let warmedOnly = false;
  /**
   * The last word asked and its bytes (asked once per session, 50,000 times a key); a text
   * holding the parts as text (too many bytes: fieldBytes.ts) is asked the word itself.
   */
  let asked = "";
  let bytes = "";
  const bytesOf = (word: string) =>
    !text?.utf8 ? word : word === asked ? bytes : ((asked = word), (bytes = asBytes(word)));
  const ctx = (word: string) => {
    if (!words.has(word) && words.size >= WORDS_KEPT) {
      ranking = null;
      words = new Set();
    }
    words.add(word);
    // Undefined only for a text not of `list` (never here): each session then asked of its fields.
    if (ranking === null) ranking = rankingContext((text ??= textOf(list)), list);
    return ranking;
  };
  return {
    // A session the text does not answer for (a word with a capital or a spaced phrase asks
    // every one: no mayHold) folds its fields once for the next keys, not at each.
    keepFolded: true,
    mayHold: (word, s) => ctx(word)?.mayHold(bytesOf(word), s) ?? true,
    nameHolds: (word, s) => ctx(word)?.nameHolds(bytesOf(word), s),
    foldedOf: (s) => {
      const folded = ranking?.foldedOf(s);
      const fields = text?.utf8 ? folded?.map(fromBytes) : folded;
      return fields?.every((f) => f !== undefined) ? (fields as string[]) : undefined;
    },
    warm: () => {
      if (ranking !== null) return;
      ranking = rankingContext((text ??= textOf(list)), list);
      warmedOnly = true;
    },
    cool: () => {
      if (!warmedOnly || words.size > 0) return;
      if (last?.text === text) last = undefined;
      text = undefined;
      ranking = null;
      warmedOnly = false;
    },
  };
}

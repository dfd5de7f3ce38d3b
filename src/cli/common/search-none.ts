import { noLineHolds } from "../../index/index-search.js";
import { searchEach, type TextTerm } from "../../search/fulltext.js";
import { closeMatch } from "../../search/fuzzy.js";
import { foldedField, type Query, type Term } from "../../search/query.js";
import type { Answer } from "./answer-cache.js";
import type { KeptStore } from "./kept-lookup.js";
import { uncoveredFiles } from "./search-coverage.js";
import type { SearchRow } from "./search-rows.js";
import { isFieldBytes, type AnyFieldText } from "../../search/field-text.js";

/*
 * A word that no session holds (a typo) proven so without making the store's rows: every
 * word of a query must match, and a word without a capital matches a session only by its
 * folded fields holding it (name, first message, folder, id: the rows' field text,
 * src/search/field-text.ts, searched as one text), by its letters scattered over a name or
 * a folder (closeMatch, over the store's few distinct names and folders), or by a line of
 * its conversation (the index names no line that could hold it, and the few files it does
 * not cover as they are now are read). Those are kept beside the rows, for the same store
 * (the same fingerprint). Anything less than that proof and the search runs as always.
 * Decoding and ranking ten thousand rows made a typo cost more than finding a hit.
 */

/** The kept answer's key: what proves a typo, for the rows of the same fingerprint. */
export const FIELDS_KEY = "search fields";
/** Written into the value: another layout is not read. */
const LAYOUT = 1;

/** The distinct names (not empty) and folders of a store's rows, folded as matchSession folds them. */
interface RowNames {
  v: number;
  /** How many rows they are of (the kept coverage must be of as many). */
  rows: number;
  names: string[];
  cwds: string[];
}

/**
 * The rows' names and folders as JSON, a newline, then their field text as UTF-8: a word
 * is looked for in its bytes, not decoded (a word without surrogates is in the UTF-16 text
 * exactly where its UTF-8 is in these bytes).
 */
export function encodeTypoCheck(rows: readonly SearchRow[], fields: AnyFieldText): Answer {
  const names = new Set<string>();
  const cwds = new Set<string>();
  for (const r of rows) {
    if (r.name) names.add(foldedField(r.name));
    cwds.add(foldedField(r.cwd));
  }
  const value: RowNames = { v: LAYOUT, rows: rows.length, names: [...names], cwds: [...cwds] };
  const head = `${JSON.stringify(value)}\n`;
  // Kept as bytes already (the kept rows' own, well-formed: the UTF-8 the text would be written as).
  if (isFieldBytes(fields)) return { out: Buffer.concat([Buffer.from(head), fields.bytes]), err: "" };
  return { out: Buffer.from(head + fields.text), err: "" };
}

function decodeTypoCheck(a: Answer | undefined): (RowNames & { fields: Buffer }) | undefined {
  if (!a) return undefined;
  const b = Buffer.from(a.out.buffer, a.out.byteOffset, a.out.length);
  const eol = b.indexOf(0x0a);
  if (eol < 0) return undefined;
  try {
    const v = JSON.parse(b.toString("utf8", 0, eol)) as RowNames;
    const strings = (l: unknown) => Array.isArray(l) && l.every((x) => typeof x === "string");
    if (v?.v !== LAYOUT || !Number.isSafeInteger(v.rows) || !strings(v.names) || !strings(v.cwds)) return undefined;
    return { ...v, fields: b.subarray(eol + 1) };
  } catch {
    return undefined;
  }
}

/** A word without a capital (whose every match is one of the above), without the field text's separators or a surrogate. */
function isProvable(t: Term): t is Term & { kind: "word"; text: string } {
  return t.kind === "word" && !t.cased && !/[\u0000\u0001\ud800-\udfff]/.test(t.text);
}

/**
 * True when no session of the store can match the query: one of its words is in no
 * session's fields, not scattered over any name or folder, in no line of the index and in
 * none of the few files it does not cover. False when that is not proven (nothing kept for
 * this store, too many files the index does not cover, the index failing): the caller searches.
 */
export async function provenNone(store: KeptStore, query: Query, includeTools: boolean): Promise<boolean> {
  const { answers } = store;
  if (!answers) return false;
  const words = query.terms.filter(isProvable);
  if (words.length === 0) return false;
  // The index first: a word that hits is told by one row of it, before anything is read.
  const index = store.index();
  if (!index) return false;
  let unsaid: typeof words;
  try {
    unsaid = words.filter((t) => noLineHolds(index.db, t, includeTools) === true);
  } catch {
    return false; // the index failed: the search says how
  }
  if (unsaid.length === 0) return false;
  const { cache, fingerprint } = answers;
  const kept = decodeTypoCheck(cache.get(FIELDS_KEY, fingerprint));
  if (!kept) return false;
  const unwritten = unsaid.filter((t) => kept.fields.indexOf(t.text) < 0);
  const unspelled = unwritten.filter(
    (t) => t.exact || ![...kept.names, ...kept.cwds].some((text) => closeMatch(t.text, text)),
  );
  if (unspelled.length === 0) return false;
  let unread: readonly string[] | undefined;
  try {
    unread = uncoveredFiles({ get: (k: string) => cache.get(k, fingerprint) }, kept.rows, index.db, includeTools);
  } catch {
    return false;
  }
  if (!unread) return false;
  // The few files the index does not cover (one with a torn last line, say) are read, as the search reads them.
  const inFiles = new Set<TextTerm>();
  for (const t of unspelled)
    await searchEach(unread, [t], { includeTools }, (_, hit) => {
      if (hit) inFiles.add(t);
    });
  return unspelled.some((t) => !inFiles.has(t));
}

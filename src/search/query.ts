import type { SessionSummary } from "../model/types.js";
import { foldAccents } from "./fold.js";
import { closeMatch, fuzzyMatch } from "./fuzzy.js";
import { compilePattern, type UserPattern } from "./pattern.js";

/*
 * The search grammar of the browser. Terms are ANDed:
 *   word            substring of name, id, first message or cwd; else its letters close
 *                   together in the name or the cwd: an abbreviation (`rcp`, `s5`) or a
 *                   compact run (`dply`), see closeMatch; termScore ranks them
 *   'word           the word as a substring only (fzf's exact match), never its letters
 *   "exact phrase"  substring, spaces included
 *   Smart case: a word or phrase with a capital letter matches case-sensitively. Accents
 *   fold: naive finds naïve (src/search/fold.ts).
 *   re:pattern      case-insensitive regular expression over the same fields, in RE2's
 *                   syntax and run by its linear-time engine (src/search/pattern.ts)
 *   cwd: model: label: name:   field filters (label: alone = has labels)
 *   after:YYYY-MM-DD before:YYYY-MM-DD today Nd   date filters on the session's modified
 *                   time: after: from the start of that (local) day on, before: up to the
 *                   start of that day (so after:2026-10-01 before:2026-11-01 is October),
 *                   today since local midnight, 7d the last 7×24 hours
 */

export type Term =
  /** `exact`: 'word, a substring only; `cased`: it has a capital letter, so case counts. Text is accent-folded. */
  | { kind: "word"; text: string; exact?: boolean; cased?: boolean }
  | { kind: "phrase"; text: string; cased?: boolean }
  | { kind: "regex"; re: UserPattern }
  | { kind: "field"; field: "cwd" | "model" | "label" | "name"; text: string }
  /** Modified time in [from, until) (epoch ms; either bound may be open). */
  | { kind: "date"; from?: number; until?: number }
  | { kind: "never" };

export interface Query {
  terms: Term[];
  error?: string;
  /** A term depends on the clock (`today`, `Nd`): the same words mean another query later. */
  relative?: boolean;
}

const FIELDS = new Set(["cwd", "model", "label", "name"]);

/** Split on whitespace; double quotes group (also after a prefix: name:"my task"). */
function tokenize(q: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  let had = false;
  for (const ch of q) {
    if (ch === '"') {
      quoted = !quoted;
      cur += ch;
      had = true;
    } else if (!quoted && /\s/.test(ch)) {
      if (had) out.push(cur);
      cur = "";
      had = false;
    } else {
      cur += ch;
      had = true;
    }
  }
  if (had) out.push(cur);
  return out;
}

function unquote(s: string): { text: string; quoted: boolean } {
  if (s.startsWith('"')) {
    const end = s.endsWith('"') && s.length > 1 ? s.length - 1 : s.length;
    return { text: s.slice(1, end), quoted: true };
  }
  return { text: s, quoted: false };
}

const DAY_MS = 86_400_000;

/** Local midnight starting the day `YYYY-MM-DD`, or undefined when that is no real date. */
export function parseDay(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(y, mo - 1, d);
  // Date rolls 2026-02-30 over into March: a rolled date was not a real one.
  if (at.getFullYear() !== y || at.getMonth() !== mo - 1 || at.getDate() !== d) return undefined;
  return at.getTime();
}

/** `today` and `Nd` (N ≥ 1): the bare words that are date filters. */
function relativeDate(tok: string, now: Date): Term | undefined {
  if (tok.toLowerCase() === "today") {
    return { kind: "date", from: new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime() };
  }
  const m = /^(\d{1,6})d$/i.exec(tok);
  if (m && Number(m[1]) > 0) return { kind: "date", from: now.getTime() - Number(m[1]) * DAY_MS };
  return undefined;
}

/** `now` resolves `today` and `Nd` (the query is parsed as it is typed). */
export function parseQuery(q: string, now: Date = new Date()): Query {
  const terms: Term[] = [];
  let error: string | undefined;
  let relativeSeen = false;
  for (const tok of tokenize(q)) {
    const colon = tok.indexOf(":");
    const prefix = colon > 0 ? tok.slice(0, colon).toLowerCase() : "";
    if (prefix === "after" || prefix === "before") {
      const text = unquote(tok.slice(colon + 1)).text;
      if (!text) continue;
      const day = parseDay(text);
      if (day === undefined) {
        error ??= `invalid date ${prefix}:${text} (use YYYY-MM-DD)`;
        terms.push({ kind: "never" });
      } else terms.push(prefix === "after" ? { kind: "date", from: day } : { kind: "date", until: day });
      continue;
    }
    const relative = relativeDate(tok, now);
    if (relative) {
      terms.push(relative);
      relativeSeen = true;
      continue;
    }
    if (prefix === "re") {
      const pattern = unquote(tok.slice(3)).text;
      if (!pattern) continue;
      try {
        terms.push({ kind: "regex", re: compilePattern(pattern) });
      } catch (e) {
        error ??= `invalid pattern re:${pattern}: ${(e as Error).message} (re: takes RE2's syntax)`;
        terms.push({ kind: "never" });
      }
      continue;
    }
    if (FIELDS.has(prefix)) {
      const text = unquote(tok.slice(colon + 1)).text.toLowerCase();
      terms.push({ kind: "field", field: prefix as "cwd" | "model" | "label" | "name", text });
      continue;
    }
    const exact = tok.length > 1 && tok.startsWith("'");
    const { text: raw, quoted } = unquote(exact ? tok.slice(1) : tok);
    if (!raw) continue;
    const cased = /\p{Lu}/u.test(raw);
    const text = foldAccents(cased ? raw : raw.toLowerCase());
    const flags = cased ? { cased } : {};
    terms.push(
      quoted ? { kind: "phrase", text, ...flags } : { kind: "word", text, ...flags, ...(exact ? { exact } : {}) },
    );
  }
  const query: Query = error ? { terms, error } : { terms };
  if (relativeSeen) query.relative = true;
  return query;
}

/** A caller may supply label texts itself (summaries carry them as `labels`). */
export interface MatchContext {
  labelsOf?(s: SessionSummary): string[] | undefined;
  /**
   * Keep each session's folded fields for the next query (the browser matches every session
   * again at every key). A one-off match (the CLI) leaves them to the garbage collector.
   */
  keepFolded?: boolean;
  /**
   * False only when none of the session's searched fields, folded as matchSession folds them
   * (foldedField), holds `text`: the session's message is then never folded for it (a
   * command ranking ten thousand sessions knows the holders of a word from their fields
   * folded once, src/search/field-text.ts). Undefined: ask the fields.
   */
  mayHold?(text: string, s: Searchable): boolean;
  /** The session's name, first message, folder and id as foldedField folds them, when known already. */
  foldedOf?(s: Searchable): string[] | undefined;
  /**
   * For a session whose fields hold `text` (mayHold true), whether its folded name does;
   * undefined when not known (then the fields are asked). Known from where the field text
   * holds it, without the fields split out of it (ranking fifteen thousand holders of a word).
   */
  nameHolds?(text: string, s: Searchable): boolean | undefined;
  /**
   * mayHold and nameHolds for every session of the context at once, by its place (placeOf):
   * one of the HELD_* codes (a command bounds the rank of 50,000 sessions in one pass).
   * The context's own array, kept for the next ask: read only.
   */
  whereHeld?(text: string): Readonly<Uint8Array>;
  /** A session's place in the context's sessions, or -1 when it does not know it. */
  placeOf?(s: Searchable): number;
}

/** whereHeld's codes: no field holds the text; one does (where not known); the name does; a field other than the name does. */
export const HELD_NOWHERE = 0;
export const HELD = 1;
export const HELD_IN_NAME = 2;
export const HELD_ELSEWHERE = 3;

export type Searchable = Pick<
  SessionSummary,
  "name" | "firstMessage" | "cwd" | "id" | "models" | "labelCount" | "labels" | "modified"
>;

/*
 * Ranking as pi 1.5.2's session picker: each text term counts by the best field it
 * matches. Tiers dominate: the term inside the name, then inside the id, the message
 * text or the folder (exact substrings only: scattered letters in a message are noise),
 * then the term's letters scattered over the name or the folder (fuzzy). Within a tier
 * pi's fuzzy score orders. Here higher is better: the rank is the tier's weight minus
 * pi's score (lower = better there).
 */
export const TIER_WEIGHT = 1_000_000;
type Tier = 0 | 1 | 2;

export function tierRank(tier: Tier, piScore = 0): number {
  const clamped = Math.max(-TIER_WEIGHT / 4, Math.min(TIER_WEIGHT / 4, piScore));
  return (3 - tier) * TIER_WEIGHT - clamped;
}

/** The rank of a term found in the first message, the id or the folder. */
export const TEXT_RANK = tierRank(1);

/**
 * What a term found only deeper in the conversation (a full-text hit) counts for: below
 * the first message, id and folder (what the row shows), above letters scattered over a
 * name or a folder.
 */
export const BODY_RANK = TEXT_RANK - TIER_WEIGHT / 2;

/**
 * How much of a field a pattern looks at here: the list matches every session at every key,
 * and RE2's engine (linear, but ~10× slower than V8's on short texts) over a pasted 50 MB
 * first message would hold each key for seconds. Past this a first message is the
 * full-text search's, which reads it as it reads the rest of the conversation, in the
 * background.
 */
export const REGEX_FIELD_CHARS = 4096;
const head = (f: string) => (f.length > REGEX_FIELD_CHARS ? f.slice(0, REGEX_FIELD_CHARS) : f);

/** Field filters only filter: every session that passes gets the same. */
export const SUBSTRING = 2;

export function normalizeSpace(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/** `lower` holds `phrase` with any run of white space standing for its spaces (normalizing only when it must). */
function includesSpaced(lower: string, phrase: string): boolean {
  if (lower.includes(phrase)) return true;
  if (!phrase.includes(" ") || !/\s\s|[^\S ]/.test(lower)) return false;
  return normalizeSpace(lower).includes(phrase);
}

/** A searched field as a term without a capital looks in it: lower-cased, accents folded. */
export const foldedField = (text: string): string => foldAccents(text.toLowerCase());

/** closeMatch's score of a word over a folder, per word and folder as written: ten thousand sessions share a hundred folders. */
const folderScores = new WeakMap<Term, Map<string, number | undefined>>();

function folderAbbreviation(t: Term & { text: string }, cwd: string): number | undefined {
  let scores = folderScores.get(t);
  if (!scores) folderScores.set(t, (scores = new Map()));
  if (scores.has(cwd)) return scores.get(cwd);
  const score = closeMatch(t.text, foldedField(cwd))?.score;
  scores.set(cwd, score);
  return score;
}

/** A word's letters scattered over the name or the folder (folded): the better score, or undefined. */
function scattered(t: Term & { text: string }, s: Searchable, foldedName: string): number | undefined {
  // (A word is never empty, and an empty name holds none.)
  const byName = foldedName ? closeMatch(t.text, foldedName)?.score : undefined;
  return better(byName, folderAbbreviation(t, s.cwd));
}

/** The better (lower) of two closeMatch scores. */
function better(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined || a <= b ? a : b;
}

/** The fields a text term looks in, accent-folded: lower-cased, or as written for a term with a capital. */
type Fields = (cased?: boolean) => string[];

function termScore(t: Term, s: Searchable, fields: Fields, ctx?: MatchContext): number {
  switch (t.kind) {
    case "never":
      return 0;
    case "date": {
      const at = s.modified.getTime();
      if (Number.isNaN(at)) return 0;
      return (t.from === undefined || at >= t.from) && (t.until === undefined || at < t.until) ? SUBSTRING : 0;
    }
    case "word": {
      if (!t.cased && ctx?.mayHold?.(t.text, s) === false) {
        // No field holds it: only its letters scattered over the name or folder can match.
        if (t.exact) return 0;
        const abbreviation = scattered(t, s, s.name ? foldedField(s.name) : "");
        return abbreviation === undefined ? 0 : tierRank(2, abbreviation);
      }
      // A field holds it, and not the name: the rank the fields below would give.
      if (!t.cased && ctx?.nameHolds?.(t.text, s) === false) return TEXT_RANK;
      const [name, message, cwd, id] = fields(t.cased);
      if (name.includes(t.text)) return tierRank(0, fuzzyMatch(t.text, name)?.score);
      if (id.includes(t.text) || message.includes(t.text) || cwd.includes(t.text)) return TEXT_RANK;
      if (t.exact || t.cased) return 0;
      const abbreviation = scattered(t, s, fields()[0]);
      return abbreviation === undefined ? 0 : tierRank(2, abbreviation);
    }
    case "phrase": {
      const phrase = t.cased ? t.text.replace(/\s+/g, " ").trim() : normalizeSpace(t.text);
      if (!phrase) return SUBSTRING;
      // Each of its words is a plain substring of a field holding it (white space is only made
      // one space, and a folded field is lower-case already), which mayHold rules on: asked of
      // its longest word alone, held by the fewest ("i" and "the" by nearly every session, and
      // a pasted sentence's every word would each be a scan of every session's fields).
      if (!t.cased && ctx?.mayHold && !ctx.mayHold(longestWord(phrase.split(" ")), s)) return 0;
      const [name, message, cwd, id] = fields(t.cased);
      if (includesSpaced(name, phrase)) return tierRank(0, fuzzyMatch(phrase, normalizeSpace(name))?.score);
      return id.includes(phrase) || includesSpaced(message, phrase) || includesSpaced(cwd, phrase) ? TEXT_RANK : 0;
    }
    case "regex":
      if (s.name && t.re.test(head(s.name))) return tierRank(0);
      return [s.firstMessage, s.cwd, s.id].some((f) => t.re.test(head(f))) ? TEXT_RANK : 0;
    case "field": {
      switch (t.field) {
        case "cwd":
          return s.cwd.toLowerCase().includes(t.text) ? SUBSTRING : 0;
        case "name":
          if (!t.text) return s.name ? SUBSTRING : 0;
          return (s.name ?? "").toLowerCase().includes(t.text) ? SUBSTRING : 0;
        case "model":
          return s.models.some((m) => m.toLowerCase().includes(t.text)) ? SUBSTRING : 0;
        case "label": {
          if (s.labelCount <= 0) return 0;
          if (!t.text) return SUBSTRING;
          const labels = ctx?.labelsOf?.(s as SessionSummary) ?? s.labels;
          return labels?.some((l) => l.toLowerCase().includes(t.text)) ? SUBSTRING : 0;
        }
      }
    }
  }
}

interface FoldedFields {
  raw: string[];
  lower?: string[];
  cased?: string[];
}

/**
 * A session's searched fields folded, kept per summary object while its fields are the same
 * strings: the browser matches every session on every key typed, and folding ten thousand
 * first messages each time was most of that.
 */
const foldedMemo = new WeakMap<object, FoldedFields>();

function foldedFields(s: Searchable, keep: boolean): FoldedFields {
  const raw = [s.name ?? "", s.firstMessage, s.cwd, s.id];
  if (!keep) return { raw };
  const had = foldedMemo.get(s);
  if (had && had.raw.every((f, i) => f === raw[i])) return had;
  const memo: FoldedFields = { raw };
  foldedMemo.set(s, memo);
  return memo;
}

/** A session's rank for one term at a time, by its own fields (0: they do not hold it), its fields folded on first need. */
export function fieldScorer(s: Searchable, ctx?: MatchContext): (t: Term) => number {
  // Made on first need: a session that mayHold rules out never folds its fields.
  let memo: FoldedFields | undefined;
  const keep = ctx?.keepFolded === true;
  // Folded fields known to the context: the raw ones are not read (a command's kept rows make
  // a first message only when it is read: src/cli/common/kept-search-row.ts). Kept or not:
  // the browser's list knows those of a word's holders and keeps the rest (a word with a
  // capital or a spaced phrase reaches every session).
  let known: string[] | undefined;
  let asked = false;
  const fields: Fields = (c) => {
    if (!c && ctx?.foldedOf) {
      // Asked once: a session the context does not know is not looked up at every term.
      if (!asked) [asked, known] = [true, ctx.foldedOf(s)];
      if (known) return known;
    }
    memo ??= foldedFields(s, keep);
    if (c) return (memo.cased ??= memo.raw.map(foldAccents));
    return (memo.lower ??= ctx?.foldedOf?.(s) ?? memo.raw.map(foldedField));
  };
  return (t) => termScore(t, s, fields, ctx);
}

/**
 * null when the session does not match by its own fields; otherwise a score (higher =
 * better): the sum of its terms' ranks, so name hits come first and fuzzy-only hits last.
 * The empty query matches with 0. (With the conversation too: src/search/plan.ts.)
 */
export function matchSession(query: Query, s: Searchable, ctx?: MatchContext): number | null {
  if (query.terms.length === 0) return 0;
  const score = fieldScorer(s, ctx);
  let total = 0;
  for (const t of query.terms) {
    const sc = score(t);
    if (sc === 0) return null;
    total += sc;
  }
  return total;
}

/** The longest of these words (the first of them at that length). */
export function longestWord(words: readonly string[]): string {
  return words.reduce((a, b) => (b.length > a.length ? b : a), "");
}

import { describeEntry, messageText } from "../model/text.js";
import { foldAccents } from "./fold.js";
import type { SessionEntry } from "../model/types.js";
import { readLines, readLinesSync, type LineRef } from "../store/line-reader.js";
import { forEachLimited } from "../store/pool.js";
import { displayWidth, sanitizeLine, truncateStartToWidth, truncateToWidth } from "../text/sanitize.js";
import type { Query, Term } from "./query.js";

/*
 * Full-text search over the conversation text of session files: what the user and the
 * assistant wrote (and, with includeTools, tool output, tool calls and bash commands).
 * Files are streamed line by line (never whole in memory); a line is only decoded and
 * parsed when its raw bytes could hold a term, and terms are then checked against the
 * message *text*, so JSON keys ("role"), ids and escapes never produce a hit.
 *
 * Terms are ANDed over the whole session: each may be satisfied by a different
 * message, and (with a `need`, src/search/plan.ts) a term the session's own fields hold
 * need not be in the conversation at all: what is reported is which terms it holds. Field
 * terms (cwd:, model:, …) describe metadata and are left to the caller (see fieldQuery).
 */

export type TextTerm = Extract<Term, { kind: "word" | "phrase" | "regex" }>;

/**
 * Per text term (textTerms' order), true when the session matches only if its conversation
 * holds the term (its own fields do not); null when nothing its conversation holds makes it
 * match (its file is not read). Without one, every term is needed.
 */
export type BodyNeed = (path: string) => readonly boolean[] | null;

/** A file's size and modification time as a check saw it: a take-back applies to that file only. */
export interface FileSeen {
  bytes: number;
  mtimeMs: number;
}

/** A session's conversation holding a term: the snippet of its first hit, and per text term whether it holds it. */
export interface BodyHit {
  snippet: SnippetText;
  held: boolean[];
}

export interface FullTextOptions {
  includeTools: boolean;
  signal?: AbortSignal;
  /** What each session needs of its conversation (SearchPlan.needOf); default: every term. */
  need?: BodyNeed;
  /**
   * Called once per session whose conversation holds a term and every term it needs, in
   * completion order, never after an abort. `held`: per text term, whether it holds it.
   * `unchecked`: reported as the index names it, its file not yet read (see onMiss).
   */
  onMatch(path: string, snippet: SnippetText, held: readonly boolean[], unchecked?: boolean): void;
  /** Called after each file with the number of files decided so far. */
  onProgress?(searched: number): void;
  /** Files read at once (default 4). */
  concurrency?: number;
  /**
   * A search that may answer before it has read every file (the index's, asked by the
   * browser) reports first the sessions the index names, each as it names it, and checks
   * them against their files after: onMiss takes back one its file turns down (a hit it
   * holds differently is reported again by onMatch), onChecking says how many are left to
   * check. Without onMiss, every hit is checked before it is reported.
   */
  onMiss?(path: string, seen: FileSeen): void;
  onChecking?(left: number): void;
  /** A hit reported unchecked that its file confirmed as reported (nothing else changes). */
  onConfirmed?(path: string): void;
  /** Where a session stands in the caller's list with these words held: the ones about to be shown are checked first. */
  place?: ListPlace;
  /** A file that could not be read (counted as no match): a caller that keeps the answer must not keep this one. */
  onUnreadable?(path: string): void;
}

/**
 * A session's place in a list: its group (lower first: the list's machine, absent 0), then
 * its rank (higher first) and, among equal ranks, its place (lower first); null when not listed.
 */
export type ListPlace = (path: string, held: readonly boolean[]) => { group?: number; rank: number; at: number } | null;

/** A session file to search, as the caller knows it now (its summary's size, mtime and ctime). */
export interface SearchTarget {
  path: string;
  bytes: number;
  mtimeMs: number;
  /** Absent: not known, and the index's text of it is not used (the file is read). */
  ctimeMs?: number;
}

/** A full-text search over session files: searchStore, or the index's (src/index/store-search.ts). */
export type FullTextFn = ((
  targets: readonly SearchTarget[],
  query: Query,
  opts: FullTextOptions,
) => Promise<FullTextResult>) & {
  /** How long after the last key a search starts (default 150 ms: reading files is costly). */
  debounceMs?: number;
  /**
   * Gets ready for a search (what a first search of a store reads before anything else) while
   * the query is typed, in the background: nothing while `busy()` (keys waiting to be handled).
   */
  warm?: (busy?: () => boolean) => void;
};

export interface FullTextResult {
  searched: number;
  matched: number;
  aborted: boolean;
  /** Of those searched, the sessions whose files were read whole (the persistent index did not cover them). */
  readWhole?: number;
}

/** The terms full-text search evaluates (word, phrase, re:). */
export function textTerms(query: Query): TextTerm[] {
  return query.terms.filter((t): t is TextTerm => t.kind === "word" || t.kind === "phrase" || t.kind === "regex");
}

/** The metadata-only part of a query: field and date filters (and "never" for an invalid pattern). */
export function fieldQuery(query: Query): Query {
  return { terms: query.terms.filter((t) => t.kind === "field" || t.kind === "date" || t.kind === "never") };
}

/**
 * A string that changes exactly when the full-text result would; null when there is
 * nothing to search (no text terms, an invalid pattern, or only one-letter words).
 */
export function fullTextSignature(query: Query): string | null {
  if (query.error || query.terms.some((t) => t.kind === "never")) return null;
  const terms = textTerms(query);
  if (terms.length === 0) return null;
  // A single letter matches nearly every session; not worth reading the store for.
  if (terms.every((t) => t.kind !== "regex" && t.text.length < 2)) return null;
  return JSON.stringify(terms.map((t) => (t.kind === "regex" ? ["re", t.re.source] : [t.kind, t.text])));
}

const SNIPPET_WIDTH = 60;
const SNIPPET_BEFORE = 20;

/** A snippet, and where the hit lies in it (string indexes). */
export interface Snippet {
  text: string;
  match: { start: number; length: number };
}

/**
 * ~60 columns of `text` around [at, at+len), sanitized to one line, "…" where cut; with the
 * hit's place. `cutBefore`: `text` is itself cut out of a longer one, before its start.
 */
export function makeSnippetAt(
  text: string,
  at: number,
  len: number,
  width = SNIPPET_WIDTH,
  cutBefore = false,
): Snippet {
  const flat = (s: string) => sanitizeLine(s).replace(/\s+/g, " ");
  const from = Math.max(0, at - SNIPPET_BEFORE * 3);
  let before = flat(text.slice(from, at)).trimStart();
  const after = flat(text.slice(at, at + len + width * 3)).trimEnd();
  // Keep the hit itself in view: at most 20 columns of context before it.
  const beforeW = Math.min(SNIPPET_BEFORE, Math.max(0, width - Math.max(len, 10)));
  if (displayWidth(before) > beforeW) before = truncateStartToWidth(before, beforeW);
  else if (from > 0 || cutBefore) before = "…" + before;
  const out = truncateToWidth(before + after, width);
  const start = Math.min(before.length, out.length);
  const hit = flat(text.slice(at, at + len)).length;
  // A cut end ("…") is not part of the hit.
  const room = out.length - start - (out.length < before.length + after.length ? 1 : 0);
  return { text: out, match: { start, length: Math.max(0, Math.min(hit, room)) } };
}

/** ~60 columns of `text` around [at, at+len), sanitized to one line, "…" where cut. */
export function makeSnippet(text: string, at: number, len: number, width = SNIPPET_WIDTH): string {
  return makeSnippetAt(text, at, len, width).text;
}

/**
 * A snippet made when first read (String(it)): what makeSnippet would make, from the
 * characters around the hit kept (a copy: the message's whole text is not held). A search
 * of every session finds tens of thousands of hits and shows a screenful; making each
 * snippet cost more than finding its hit (~100 µs of the ~150 µs a hit took at 50,000 sessions).
 */
export class LazySnippet {
  private readonly part: string;
  private readonly at: number;
  /** Cut out after the text's start: makeSnippet puts an ellipsis there. */
  private readonly cut: boolean;
  private made: string | undefined;

  constructor(
    text: string,
    at: number,
    private readonly len: number,
  ) {
    const from = Math.max(0, at - SNIPPET_BEFORE * 3);
    // A flat copy: a slice of a long string keeps the whole of it alive.
    this.part = (" " + text.slice(from, at + len + SNIPPET_WIDTH * 3)).slice(1);
    this.at = at - from;
    this.cut = from > 0;
  }

  toString(): string {
    return (this.made ??= makeSnippetAt(this.part, this.at, this.len, SNIPPET_WIDTH, this.cut).text);
  }
}

/** A snippet made by a function when first read (a hit the index named, read from its file when its row is drawn). */
export class SnippetLater {
  private made: string | undefined;
  constructor(private readonly make: () => string) {}
  toString(): string {
    return (this.made ??= this.make());
  }
}

/** A hit's snippet: made (a string), or made when first read (String(it)). */
export type SnippetText = string | LazySnippet | SnippetLater;

/** The texts of one entry that full-text search looks at (tool texts only with includeTools). */
export function searchableTexts(entry: SessionEntry, includeTools: boolean): string[] {
  if (entry.type !== "message") return [];
  const m = entry.message ?? {};
  const role = typeof m.role === "string" ? m.role : "";
  if (role === "user" || role === "assistant") {
    const text = messageText(m.content);
    const out = text ? [text] : [];
    if (includeTools && role === "assistant") out.push(...describeEntry(entry).toolCalls);
    return out;
  }
  if (!includeTools) return [];
  if (role === "toolResult") {
    const text = messageText(m.content);
    return text ? [text] : [];
  }
  if (role === "bashExecution") {
    const out: string[] = [];
    if (typeof m.command === "string") out.push(m.command);
    if (typeof m.output === "string") out.push(m.output);
    return out;
  }
  return [];
}

/**
 * Where a term occurs in `text` ({at, len}), or null. `lower` is the text lower-cased and
 * accent-folded; `folded` gives it folded with its case kept (for a term with a capital).
 */
export function findTerm(
  t: TextTerm,
  text: string,
  lower: string,
  folded: () => string,
): { at: number; len: number } | null {
  if (t.kind === "regex") {
    return t.re.find(text);
  }
  const at = (t.cased ? folded() : lower).indexOf(t.text);
  // toLowerCase keeps the length for nearly all text; where it doesn't, the snippet is approximate.
  return at === -1 ? null : { at, len: t.text.length };
}

/**
 * Checks one entry's texts against the terms still `pending`, in order: removes each term
 * a text holds and returns the snippet of the first hit (null when none). Scanning a whole
 * file and checking only an index's candidate lines run this same step, so both agree.
 */
export function matchEntry(
  entry: SessionEntry,
  pending: Set<TextTerm>,
  includeTools: boolean,
  withSnippet: boolean | "lazy" = true,
): SnippetText | null {
  let snippet: SnippetText | null = null;
  for (const text of searchableTexts(entry, includeTools)) {
    // Folded once per text, not once per term.
    const lower = foldAccents(text.toLowerCase());
    let cased: string | undefined;
    const folded = () => (cased ??= foldAccents(text));
    for (const t of [...pending]) {
      const hit = findTerm(t, text, lower, folded);
      if (!hit) continue;
      pending.delete(t);
      // Making a snippet costs more than finding the hit: not made when nobody shows it, or
      // made when it is shown.
      snippet ??=
        withSnippet === "lazy"
          ? new LazySnippet(text, hit.at, hit.len)
          : withSnippet
            ? makeSnippet(text, hit.at, hit.len)
            : "";
    }
    if (pending.size === 0) break;
  }
  return snippet;
}

/** One entry that holds a term: its id, its role, and a snippet of the first hit. */
export interface EntryHit extends Snippet {
  entryId: string | null;
  role: string;
}

/** The first hit of any term in one entry's texts (regardless of what other entries held), or null. */
export function entryHit(entry: SessionEntry, terms: readonly TextTerm[], includeTools: boolean): EntryHit | null {
  for (const text of searchableTexts(entry, includeTools)) {
    const lower = foldAccents(text.toLowerCase());
    let cased: string | undefined;
    const folded = () => (cased ??= foldAccents(text));
    for (const t of terms) {
      const hit = findTerm(t, text, lower, folded);
      if (!hit) continue;
      const m = (entry as { message?: { role?: unknown } }).message;
      return {
        entryId: typeof entry.id === "string" ? entry.id : null,
        role: typeof m?.role === "string" ? m.role : entry.type,
        ...makeSnippetAt(text, hit.at, hit.len),
      };
    }
  }
  return null;
}

/** A line's bytes: buf[start, end). */
export type RawLine = Pick<LineRef, "buf" | "start" | "end">;

const TOOL_RESULT_MARK = Buffer.from('"role":"toolResult"');
const BASH_MARK = Buffer.from('"role":"bashExecution"');

/**
 * A tool result or a bash execution: no text but tool text (searchableTexts), told from
 * the raw bytes. Tool output dominates a store's bytes, so it is skipped before decoding.
 * The marker with unescaped quotes can only be JSON structure, never text inside a string.
 * (A view of the line's head is searched: indexOf on the chunk would run to its end.)
 */
export function isToolOutputLine({ buf, start, end }: RawLine): boolean {
  const head = buf.subarray(start, Math.min(end, start + 400));
  return head.indexOf(TOOL_RESULT_MARK) !== -1 || head.indexOf(BASH_MARK) !== -1;
}

/** JSON-escaped form of a term as it appears inside a JSON string ("a\"b" for a"b). */
function jsonForm(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/**
 * The raw-line prefilter: a line can only help if it holds one of the `active` literal
 * terms (in their JSON-escaped form); regex terms can't be checked on raw bytes. It is
 * case-insensitive and accent-folded, a superset of what the terms match. Returns the
 * decoded line when it may hold a term, else null.
 */
export function linePrefilter(terms: readonly TextTerm[], includeTools: boolean) {
  const literals = terms
    .filter((t) => t.kind !== "regex")
    .map((t) => ({
      term: t,
      raw: jsonForm((t as { text: string }).text.toLowerCase()),
      ascii: /^[\x20-\x7e]*$/.test((t as { text: string }).text),
    }));
  const hasRegex = terms.some((t) => t.kind === "regex");
  return (ref: RawLine, active: ReadonlySet<TextTerm>): string | null => {
    const { buf, start, end } = ref;
    if (!includeTools && isToolOutputLine(ref)) return null;
    const line = buf.toString("utf8", start, end);
    if (hasRegex) return line;
    const lower = foldAccents(line.toLowerCase());
    for (const l of literals) {
      if (!active.has(l.term)) continue;
      // Another writer may have escaped non-ASCII as \uXXXX: then parse to be sure.
      if (lower.includes(l.raw) || (!l.ascii && line.includes("\\u"))) return line;
    }
    return null;
  };
}

function parseEntry(line: string): SessionEntry | null {
  try {
    const entry = JSON.parse(line) as SessionEntry;
    return entry && typeof entry === "object" ? entry : null;
  } catch {
    return null;
  }
}

/**
 * A file's hit once its lines are checked (`missing`: a term none of them held): null when
 * it holds no term, or lacks one its session needs (`need`; every term without one).
 */
export function bodyHit(
  terms: readonly TextTerm[],
  missing: (t: TextTerm) => boolean,
  need: readonly boolean[] | undefined,
  snippet: SnippetText | null,
): BodyHit | null {
  const held = terms.map((t) => !missing(t));
  if (!held.some(Boolean)) return null;
  for (let i = 0; i < terms.length; i++) if (!held[i] && (need ? need[i] : true)) return null;
  return { snippet: snippet ?? "", held };
}

/** One session file: its hit (bodyHit) or null. */
export async function searchFile(
  path: string,
  terms: readonly TextTerm[],
  includeTools: boolean,
  signal?: AbortSignal,
  need?: readonly boolean[],
): Promise<BodyHit | null> {
  if (terms.length === 0) return null;
  const pending = new Set(terms);
  const mayHold = linePrefilter(terms, includeTools);
  let snippet: SnippetText | null = null;
  let aborted = false;
  await readLines(path, (ref) => {
    if (signal?.aborted) {
      aborted = true;
      return false;
    }
    const line = mayHold(ref, pending);
    const entry = line === null ? null : parseEntry(line);
    if (!entry) return;
    const hit = matchEntry(entry, pending, includeTools);
    snippet ??= hit;
    if (pending.size === 0) return false;
  });
  if (aborted || signal?.aborted) return null;
  return bodyHit(terms, (t) => pending.has(t), need, snippet);
}

/**
 * One session file's hit (bodyHit) or null, read at once (blocking, chunk by chunk, lines
 * past MAX_LINE_BYTES passed over as readLines does): what an action on a row still to
 * check waits for (~1 ms a session), so no key is handled before it. Throws when the file
 * cannot be read (the caller does not take that for "no match").
 */
export function searchFileSync(
  path: string,
  terms: readonly TextTerm[],
  includeTools: boolean,
  need?: readonly boolean[],
): BodyHit | null {
  if (terms.length === 0) return null;
  const pending = new Set(terms);
  const mayHold = linePrefilter(terms, includeTools);
  let snippet: SnippetText | null = null;
  readLinesSync(path, (ref) => {
    const line = mayHold(ref, pending);
    const entry = line === null ? null : parseEntry(line);
    if (entry) snippet ??= matchEntry(entry, pending, includeTools);
    return pending.size > 0;
  });
  return bodyHit(terms, (t) => pending.has(t), need, snippet);
}

/**
 * The first `max` entries of a file, in file order, that hold a term, with snippets: what
 * `search` shows for a session the index does not cover (and the same entries it finds
 * among the index's candidate lines for one it does).
 */
export async function fileHits(
  path: string,
  terms: readonly TextTerm[],
  includeTools: boolean,
  max: number,
): Promise<EntryHit[]> {
  const all = new Set(terms);
  const mayHold = linePrefilter(terms, includeTools);
  const hits: EntryHit[] = [];
  await readLines(path, (ref) => {
    const line = mayHold(ref, all);
    const entry = line === null ? null : parseEntry(line);
    const hit = entry ? entryHit(entry, terms, includeTools) : null;
    if (hit) hits.push(hit);
    return hits.length < max;
  });
  return hits;
}

/**
 * Searches the given session files in the background, `concurrency` at a time, and
 * reports each matching session as soon as its file is decided. Unreadable files are
 * skipped. Resolves when done or aborted.
 */
export async function searchStore(
  paths: readonly string[],
  query: Query,
  opts: FullTextOptions,
): Promise<FullTextResult> {
  const terms = textTerms(query);
  const result: FullTextResult = { searched: 0, matched: 0, aborted: false };
  if (terms.length === 0 || query.terms.some((t) => t.kind === "never")) return result;
  await searchEach(paths, terms, opts, (path, hit) => {
    result.searched++;
    if (hit !== null) {
      result.matched++;
      opts.onMatch(path, hit.snippet, hit.held);
    }
    opts.onProgress?.(result.searched);
  });
  result.aborted = !!opts.signal?.aborted;
  return result;
}

/**
 * Reads files `concurrency` at a time (default 4) and hands each one's verdict to
 * `decided`: its hit, or null (no match; gone or unreadable since the scan counts as no
 * match, and is told to `onUnreadable`; a file whose session cannot match, by `need`, is
 * not read). Nothing is handed over after an abort.
 */
export async function searchEach(
  paths: readonly string[],
  terms: readonly TextTerm[],
  opts: {
    includeTools: boolean;
    signal?: AbortSignal;
    concurrency?: number;
    need?: BodyNeed;
    onUnreadable?: (path: string) => void;
  },
  decided: (path: string, hit: BodyHit | null) => void,
): Promise<void> {
  const { signal } = opts;
  await forEachLimited(
    paths,
    opts.concurrency ?? 4,
    async (path) => {
      let hit: BodyHit | null = null;
      const need = opts.need ? opts.need(path) : undefined;
      try {
        if (need !== null) hit = await searchFile(path, terms, opts.includeTools, signal, need);
      } catch {
        // Gone or unreadable since the scan: not a match (an answer of it is not to be kept).
        opts.onUnreadable?.(path);
      }
      if (!signal?.aborted) decided(path, hit);
    },
    signal,
  );
}

/** searchStore as a FullTextFn: reads every file (no index). */
export const searchFiles: FullTextFn = (targets, query, opts) =>
  searchStore(
    targets.map((t) => t.path),
    query,
    opts,
  );

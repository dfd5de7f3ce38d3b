import { resolve } from "node:path";
import {
  caughtUp,
  hitsOf,
  planWithIndex,
  searchWithIndex,
  type IndexedHit,
  type IndexedPlan,
  type KnownCoverage,
} from "../../index/index-search.js";
import { indexStaleText } from "../../index/text-index.js";
import type { StoreIndex } from "../../index/store-index.js";
import { sessionTitle } from "../../model/session-title.js";
import { fileHits, searchStore, textTerms, type EntryHit } from "../../search/fulltext.js";
import { parseQuery, type Query } from "../../search/query.js";
import { sessionRanker } from "../../search/rank.js";
import { whyMatched } from "../../search/why.js";
import { cwdScope } from "../../store/scope.js";
import { formatAge, groupDigits } from "../../text/format.js";
import { sanitizeLine, truncateToWidth } from "../../text/sanitize.js";
import { usageError } from "../common/errors.js";
import { quietIO, writeStdoutBytes, type CliIO } from "../common/io.js";
import { safeJson } from "../common/json.js";
import { parse, STORE_OPTION, QUIET_OPTION } from "../common/parse.js";
import { discoverKept, keptFor, type KeptStore } from "../common/kept-lookup.js";
import { decodeSearchAnswer, encodeSearchAnswer, searchAnswerKey } from "../common/search-answer.js";
import { scanWithIndex } from "../common/scan-indexed.js";
import { decodeSearchRows, encodeSearchRows, rowsStillTrue, type SearchRow } from "../common/search-rows.js";
import { coverageAnswer, type CoverageAnswer, type KeptCoverage } from "../common/search-coverage.js";
import { storeFromArgs } from "../common/store-arg.js";
import type { Answer } from "../common/answer-cache.js";
import { scanStore } from "../../scan/scan-store.js";
import type { SessionFile } from "../../store/discover.js";

/** Snippets shown per session. */
const SNIPPETS = 3;

/** Above this much unindexed text, `search` reads it instead of indexing it first (and says how to index it). */
const INDEX_FIRST_BYTES = 1024 * 1024 * 1024;
/** The same for tool output (--tools), which costs about fifty times more to index than to read. */
const INDEX_TOOLS_FIRST_BYTES = 32 * 1024 * 1024;

interface Found {
  s: SearchRow;
  /** The browser's rank (matchSession's tiers; a hit deeper in the conversation counts as BODY_RANK). */
  rank: number;
  snippets: EntryHit[];
}

/**
 * Higher first: the browser's rank (name hits, then first-message, id and folder hits, then
 * hits deeper in the conversation, then letters scattered over a name), then the newer session. Nothing the index alone knows counts, so
 * the order is the same with and without it.
 */
function byRelevance(a: Found, b: Found): number {
  return b.rank - a.rank || b.s.modified.getTime() - a.s.modified.getTime() || (a.s.path < b.s.path ? -1 : 1);
}

/** The rank as a number a script can compare within one result set (its tiers are the integer part). */
function score(f: Found): number {
  return Math.round((f.rank / 1_000_000) * 1000) / 1000;
}

async function textHits(
  index: StoreIndex | undefined,
  sessions: SearchRow[],
  query: Query,
  includeTools: boolean,
  io: CliIO,
  known: KnownCoverage | undefined,
): Promise<Map<string, IndexedHit>> {
  const hits = new Map<string, IndexedHit>();
  if (textTerms(query).length === 0) return hits;
  if (index) {
    try {
      return await searchWithIndex(index.db, sessions, query, {
        includeTools,
        known,
        snippets: false,
        onMatch: (h) => hits.set(h.path, h),
      }).then(() => hits);
    } catch (err) {
      io.stderr(`pi-sessions: searched without the index (${sanitizeLine(String(err))})\n`);
      hits.clear();
    }
  }
  await searchStore(
    sessions.map((s) => s.path),
    query,
    {
      includeTools,
      onMatch: (path, snippet) => hits.set(path, { path, snippet, fromIndex: false, lines: [] }),
    },
  );
  return hits;
}

/** Every session the query matches, best first (the browser's rank; a hit only deeper in the conversation counts as BODY_RANK). */
function rankAll(scoped: SearchRow[], query: Query, hits: Map<string, IndexedHit>): Found[] {
  const rank = sessionRanker(query);
  const found: Found[] = [];
  for (const s of scoped) {
    const r = rank(s, hits.has(s.path));
    if (r.rank !== null) found.push({ s, rank: r.rank, snippets: [] });
  }
  return found.sort(byRelevance);
}

/**
 * The first `limit` of rankAll's list, with the hits of those, checking as few files as
 * that takes: each session's best possible rank (a text hit, unless the index rules it
 * out), best first; a session whose rank needs a text hit is checked when it comes up, and
 * goes back in line at its rank without one if it has none. The same list as rankAll's, as
 * long as no date is invalid (then the order's ties are not a total order: not used).
 * Undefined when the index fails (the caller searches without it).
 */
async function bestWithIndex(
  index: StoreIndex,
  scoped: SearchRow[],
  query: Query,
  includeTools: boolean,
  limit: number,
  known: KnownCoverage | undefined,
): Promise<{ found: Found[]; hits: Map<string, IndexedHit> } | undefined> {
  const hits = new Map<string, IndexedHit>();
  let plan: IndexedPlan | null = null;
  if (textTerms(query).length > 0) {
    try {
      plan = planWithIndex(index.db, scoped, query, includeTools, known);
    } catch {
      return undefined;
    }
  }
  const rank = sessionRanker(query);
  // [the rank it has without a text hit (null: none), the rank it may have] per session.
  type Line = Found & { without: number | null; needsText: boolean };
  const line: Line[] = [];
  for (const s of scoped) {
    const r = rank(s, !!plan?.mayMatch(s.path));
    if (r.rank !== null) line.push({ s, rank: r.rank, snippets: [], without: r.own, needsText: r.byText });
  }
  line.sort(byRelevance);
  // Sessions that had no text hit after all, at their rank without one: best first.
  const later: Found[] = [];
  const found: Found[] = [];
  let i = 0;
  while (found.length < limit && (i < line.length || later.length > 0)) {
    const next = i < line.length ? line[i] : undefined;
    if (later.length > 0 && (!next || byRelevance(later[0], next) <= 0)) {
      found.push(later.shift()!);
      continue;
    }
    i++;
    const f = next!;
    // Its text hit (if any) is wanted either way: for its rank, or for its snippets.
    const hit = plan?.mayMatch(f.s.path) ? await plan.check(f.s.path) : null;
    if (hit) hits.set(f.s.path, hit);
    if (hit || !f.needsText) {
      found.push({ s: f.s, rank: f.rank, snippets: [] });
      continue;
    }
    if (f.without === null) continue;
    const back: Found = { s: f.s, rank: f.without, snippets: [] };
    const at = later.findIndex((x) => byRelevance(back, x) < 0);
    later.splice(at < 0 ? later.length : at, 0, back);
  }
  return { found, hits };
}

/**
 * Unindexed text (of new or changed files; and tool texts, for --tools): indexed first
 * when there is little, else left to reading, with a hint. The conversation is cheap to
 * index (tool output is skipped unread); tool output costs FTS far more per byte.
 */
async function catchUp(
  index: StoreIndex,
  io: CliIO,
  tools: boolean,
  sessions: SearchRow[],
  kept: KeptCoverage | undefined,
): Promise<void> {
  // Usually nothing is left: known from what was kept, or from the text states the search reads anyway.
  if (kept ? kept.caughtUp(tools) : caughtUp(index.db, sessions, tools)) return;
  const pending = (where: string) =>
    index.db
      .q(
        `SELECT count(*) AS n, coalesce(sum(size - coalesce(text_end, 0)), 0) AS changed, coalesce(sum(size), 0) AS bytes
         FROM files WHERE summary IS NOT NULL AND ${where}`,
      )
      .get() as { n: number; changed: number; bytes: number };
  const stale = pending(
    "(text_size IS NULL OR text_size IS NOT size OR text_mtime IS NOT mtime OR text_ino IS NOT ino)",
  );
  let left = 0;
  if (stale.n > 0 && stale.changed <= INDEX_FIRST_BYTES) await indexStaleText(index.db, undefined, { tools: false });
  else left += stale.n;
  if (tools) {
    const toolless = pending("text_tools = 0");
    if (toolless.n > 0 && toolless.bytes <= INDEX_TOOLS_FIRST_BYTES) await indexStaleText(index.db);
    else left = Math.max(left, toolless.n);
  }
  if (left > 0)
    io.stderr(
      `pi-sessions: ${left} sessions are not in the index yet and are read instead (run 'pi-sessions index' once, or open the browser, to index them)\n`,
    );
}

/** The kept rows' key in the answer cache (one per store: they do not depend on the query). */
const ROWS_KEY = "search rows";

/** At most this many files (or a tenth of them) summarized again on top of rows kept of the store before; more, and all are scanned. */
const REUSE_SLACK = 256;

/**
 * The store's sessions as search reads them: the rows kept in the index for a store with
 * this very fingerprint; else the rows kept of the store before, where their files are the
 * same, and the files that changed since summarized (pi wrote to a session since the last
 * search: the usual case); else scanned. Kept, once two runs in a row saw the same store.
 * With rows kept for this store, what the index covered of them when last searched, if kept.
 */
async function searchedSessions(
  storeDir: string,
  io: CliIO,
  store: KeptStore,
): Promise<{ sessions: SearchRow[]; index?: StoreIndex; coverage?: CoverageAnswer }> {
  const k = keptFor(store, ROWS_KEY, (a) => decodeSearchRows(a.out), { earlier: true });
  const index = k.index();
  if (k.kept) return { sessions: k.kept.rows, index, coverage: k.other && coverageAnswer(k.other, k.kept.rows) };
  const sessions =
    (index && (await fromEarlierRows(storeDir, k, index))) ??
    (await scanWithIndex(storeDir, io, { index: index ?? null, found: k.found })).sessions;
  k.keep?.({ out: encodeSearchRows(sessions, k.found.files), err: "" });
  return { sessions, index };
}

/** The rows kept of the store before, still true of its files, and the few files that changed summarized (undefined: too many, or none kept). */
async function fromEarlierRows(
  storeDir: string,
  k: { found: { files: SessionFile[] }; earlier?: Answer },
  index: StoreIndex,
): Promise<SearchRow[] | undefined> {
  const kept = k.earlier && decodeSearchRows(k.earlier.out);
  if (!kept) return undefined;
  const { rows, todo } = rowsStillTrue(kept, k.found.files);
  if (todo.length > Math.max(REUSE_SLACK, k.found.files.length / 10)) return undefined;
  // Their rows in the index where another run summarized them already, else read.
  const { sessions } = await scanStore(
    storeDir,
    {},
    { probe: false, cache: index.scans.forFew(), found: { files: todo, diagnostics: [] } },
  );
  // Newest first, as a scan of the store hands them over.
  return [...rows, ...sessions].sort((a, b) => b.mtimeMs - a.mtimeMs);
}

export async function searchCommand(args: string[], given: CliIO): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      ...STORE_OPTION,
      all: { type: "boolean", short: "a" },
      cwd: { type: "string" },
      json: { type: "boolean" },
      limit: { type: "string", short: "n" },
      tools: { type: "boolean" },
      ...QUIET_OPTION,
    },
    "search",
  );
  const io = quietIO(given, values.quiet);
  const text = positionals.join(" ").trim();
  if (!text) throw usageError("search needs a query (see pi-sessions search --help)");
  if (values.all && values.cwd) throw usageError("--all and --cwd can't be combined");
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw usageError(`--limit takes a positive whole number (got '${values.limit}')`);
  const query = parseQuery(text);
  if (query.error) throw usageError(`bad query: ${query.error}`);
  const quiet = !!values.quiet;
  const store = storeFromArgs(values["session-dir"], io);
  const cwd = resolve(io.cwd, values.cwd ?? ".");
  const includeTools = !!values.tools;
  const kept = await discoverKept(store.dir, io);
  // --json on a store unchanged since the same question was last asked: its answer, as it was.
  const question = values.json
    ? searchAnswerKey({ text, scope: values.all ? "" : cwd, limit, tools: includeTools }, query)
    : undefined;
  const answer = question && keptFor(kept, question.slot, (a) => decodeSearchAnswer(a, question));
  if (answer?.kept) {
    writeStdoutBytes(io, answer.kept);
    return 0;
  }
  const { sessions, index, coverage } = await searchedSessions(store.dir, io, kept);
  try {
    const inScope = values.all ? () => true : cwdScope(store.dir, cwd);
    const scoped = sessions.filter(inScope);
    let covered = index && coverage?.read(index.db);
    if (index) await catchUp(index, io, includeTools, sessions, covered);
    // Caught up just now: what was kept is of the index before.
    if (covered && !covered.still(index!.db)) covered = undefined;
    // Only the best `limit` printed, and not how many more (--json, --quiet): with the index,
    // only the files that can be among them are checked, best first.
    const capped =
      index && (values.json || quiet) && !scoped.some((s) => Number.isNaN(s.modified.getTime()))
        ? await bestWithIndex(index, scoped, query, includeTools, limit, covered?.known)
        : undefined;
    const hits = capped?.hits ?? (await textHits(index, scoped, query, includeTools, io, covered?.known));
    // Kept for the next run on this store (read from the text states by now, as the search needed them).
    if (index && coverage && !covered) coverage.keep(index.db);
    const found: Found[] = capped?.found ?? rankAll(scoped, query, hits);
    const terms = textTerms(query);
    const shown = found.slice(0, limit);
    // Snippets only for what is shown: making them is most of the work of a broad query.
    // The first entries holding a term, in file order: among the index's candidate lines,
    // or read from the file; the same entries either way.
    for (const f of shown) {
      const hit = hits.get(f.s.path);
      if (!hit) continue;
      try {
        f.snippets = hit.fromIndex
          ? hitsOf(f.s.path, hit.lines, terms, includeTools, SNIPPETS)
          : await fileHits(f.s.path, terms, includeTools, SNIPPETS);
      } catch {
        // Gone since: no snippets.
      }
    }
    if (values.json) {
      const printed = `${safeJson(shown.map((f) => resultJson(f, query)))}\n`;
      io.stdout(printed);
      if (question) answer?.keep?.(encodeSearchAnswer(question, printed));
      return 0;
    }
    if (!shown.length) {
      io.stderr(values.all ? "no match\n" : `no match for ${sanitizeLine(cwd)} (try --all)\n`);
      return 1;
    }
    io.stdout(formatResults(shown, query, io, !!values.all));
    if (found.length > shown.length) io.stderr(`${groupDigits(found.length - shown.length)} more (--limit N)\n`);
    return 0;
  } finally {
    index?.close();
  }
}

function resultJson(f: Found, query: Query): Record<string, unknown> {
  const why = f.snippets.length ? undefined : whyMatched(query, f.s);
  return {
    path: f.s.path,
    id: f.s.id,
    name: f.s.name ?? null,
    cwd: f.s.cwd,
    modified: Number.isNaN(f.s.modified.getTime()) ? null : f.s.modified.toISOString(),
    score: score(f),
    snippets: f.snippets.length
      ? f.snippets.map((h) => ({ entryId: h.entryId, role: h.role, text: h.text, match: h.match }))
      : why
        ? [{ entryId: null, role: "session", text: why, match: null }]
        : [],
  };
}

/** The hit marked: reverse video on a terminal, «» in a pipe. */
function marked(h: EntryHit, tty: boolean): string {
  const { start, length } = h.match;
  const [a, b] = tty ? ["\x1b[7m", "\x1b[27m"] : ["«", "»"];
  if (length === 0) return h.text;
  return h.text.slice(0, start) + a + h.text.slice(start, start + length) + b + h.text.slice(start + length);
}

function formatResults(found: Found[], query: Query, io: CliIO, withCwd: boolean): string {
  // A terminal's rows are cut to its width; a pipe gets them whole (grep, awk).
  const fit = (line: string) => (io.columns === undefined ? line : truncateToWidth(line, io.columns));
  const now = Date.now();
  const out: string[] = [];
  for (const f of found) {
    const head = [formatAge(f.s.modified, now).padStart(4), sanitizeLine(f.s.id.slice(0, 8)), sessionTitle(f.s)];
    if (withCwd) head.push(`(${sanitizeLine(f.s.cwd)})`);
    out.push(fit(head.join("  ")));
    const lines = f.snippets.length
      ? f.snippets.map((h) => `${h.role}: ${marked(h, io.isTTY)}`)
      : [whyMatched(query, f.s)].filter((x): x is string => !!x);
    // Snippets are sanitized already; the marks are ours.
    for (const l of lines) out.push(`      ${l}`);
  }
  return out.join("\n") + "\n";
}

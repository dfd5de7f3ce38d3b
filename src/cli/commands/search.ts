import { resolve } from "node:path";
import { oneLine } from "../../index/index-db.js";
import { caughtUp, hitsOf, textStatesWritten } from "../../index/index-search.js";
import { filesToDo, indexStaleText, TEXT_STALE } from "../../index/text-index.js";
import type { StoreIndex } from "../../index/store-index.js";
import { fileHits, textTerms } from "../../search/fulltext.js";
import { fieldTextAgain, fieldTextOf, rankingContext, type AnyFieldText } from "../../search/field-text.js";
import { parseQuery, type MatchContext, type Query } from "../../search/query.js";
import { cwdScope } from "../../store/scope.js";
import { groupDigits } from "../../text/format.js";
import { sanitizeLine } from "../../text/sanitize.js";
import type { Answer } from "../common/answer-cache.js";
import { usageError } from "../common/errors.js";
import { heldNotes, quietIO, type CliIO } from "../common/io.js";
import { output } from "../common/output.js";
import { parse, STORE_OPTION, QUIET_OPTION } from "../common/parse.js";
import {
  discoverKept,
  keptFor,
  type KeptLookup,
  type KeptStore,
  unreadableSinceDiscovery,
} from "../common/kept-lookup.js";
import { encodeTypoCheck, FIELDS_KEY, provenNone } from "../common/search-none.js";
import {
  decodeSearchAnswer,
  encodeSearchAnswer,
  searchAnswerKey,
  type SearchAnswerKey,
} from "../common/search-answer.js";
import { scanWithIndex } from "../common/scan-indexed.js";
import { bestWithIndex, textHits } from "../common/search-best.js";
import { rankAll } from "../../search/best.js";
import { searchPlan } from "../../search/plan.js";
import { formatResults, resultJson, type Found } from "../common/search-output.js";
import {
  decodeSearchRows,
  encodeSearchRows,
  KeptRowsUnreadable,
  rowsStamp,
  rowsStillTrue,
  type SearchRow,
} from "../common/search-rows.js";
import { coverageAnswer, type CoverageAnswer, type KeptCoverage } from "../common/search-coverage.js";
import { storeFromArgs } from "../common/store-arg.js";
import { modifiedTime } from "../common/kept-search-row.js";
import { indexLater } from "../common/index-later.js";
import { scanStore } from "../../scan/scan-store.js";
import type { SessionFile } from "../../store/discover.js";

/** Snippets shown per session. */
const SNIPPETS = 3;

/**
 * Up to this much unindexed text (of new or changed files), `search` indexes it before it
 * answers (pi appended to a few sessions: a fraction of a second); past it, it reads that
 * text and leaves the indexing to a background `pi-sessions index` (index-later.ts), so
 * the answer never waits for SQLite's full-text index of a whole store.
 */
const INDEX_FIRST_BYTES = 64 * 1024 * 1024;
/** The same for tool output (--tools), which costs about fifty times more to index than to read. */
const INDEX_TOOLS_FIRST_BYTES = 32 * 1024 * 1024;

/** The two limits above; PI_SESSIONS_INDEX_INLINE_BYTES sets both (tests: a small store left to the background). */
function inlineLimits(env: NodeJS.ProcessEnv): { text: number; tools: number } {
  const given = Number(env.PI_SESSIONS_INDEX_INLINE_BYTES);
  if (env.PI_SESSIONS_INDEX_INLINE_BYTES && Number.isFinite(given) && given >= 0) return { text: given, tools: given };
  return { text: INDEX_FIRST_BYTES, tools: INDEX_TOOLS_FIRST_BYTES };
}

/**
 * Unindexed text (of new or changed files; and tool texts, for --tools): indexed first
 * when there is little, else read, and the index brought up to date in the background
 * (returned: started once the search has answered), or, where it cannot be, a hint. The
 * conversation is cheap to index (tool output is skipped unread); tool output costs FTS
 * far more per byte.
 */
async function catchUp(
  index: StoreIndex,
  io: CliIO,
  storeDir: string,
  tools: boolean,
  sessions: SearchRow[],
  kept: KeptCoverage | undefined,
): Promise<(() => void) | undefined> {
  // Usually nothing is left: known from what was kept, or from the text states the search reads anyway.
  if (kept ? kept.caughtUp(tools) : caughtUp(index.db, sessions, tools)) return undefined;
  // Another process holds the index's write lock (this run's scan found it so): what is not
  // indexed is read, as it is when there is much of it.
  if (index.scans.busy) return undefined;
  const pending = (where: string) =>
    index.db
      .q(
        `SELECT count(*) AS n, coalesce(sum(size - coalesce(text_end, 0)), 0) AS changed, coalesce(sum(size), 0) AS bytes
         FROM files WHERE ${where}`,
      )
      .get() as { n: number; changed: number; bytes: number };
  const limit = inlineLimits(io.env);
  const stale = pending(TEXT_STALE);
  let left = 0;
  if (stale.n > 0 && stale.changed <= limit.text) {
    const before = index.db.changeMark();
    const written = filesToDo(index.db, "new");
    await indexStaleText(index.db, undefined, { tools: false });
    // The text states read by caughtUp, but for those files: not every file's read again.
    textStatesWritten(index.db, before, written);
  } else left += stale.n;
  if (tools) {
    const toolless = pending("summary IS NOT NULL AND text_tools = 0");
    if (toolless.n > 0 && toolless.bytes <= limit.tools) await indexStaleText(index.db);
    else left = Math.max(left, toolless.n);
  }
  if (left === 0) return undefined;
  const later = indexLater(index.db.path, storeDir, io);
  const what = `pi-sessions: ${groupDigits(left)} sessions are not in the index yet and are read instead`;
  if (!later) {
    output(io).note(`${what} (run 'pi-sessions index' once, or open the browser, to index them)\n`);
    return undefined;
  }
  output(io).note(
    later.running
      ? `${what}; they are being indexed in the background\n`
      : `${what}; indexing them in the background, at low priority, for the next search\n`,
  );
  return later.running ? undefined : later.start;
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
 * With the rows kept (read back, or kept by this run), the answer of what the index covers
 * of them (search-coverage.ts): read when kept for these very rows and still true of the
 * index, else kept by this run's search. `unread`: the scan could not read a file discovery
 * found (unreadableSinceDiscovery, kept-lookup.ts): nothing is kept of this run, rows nor answer.
 */
async function searchedSessions(
  storeDir: string,
  io: CliIO,
  store: KeptStore,
  withoutKeptRows = false,
): Promise<{
  sessions: SearchRow[];
  index?: StoreIndex;
  coverage?: CoverageAnswer;
  ranking?: MatchContext;
  unread?: boolean;
}> {
  // The first messages are read from the file for the rows that need them (search-rows.ts).
  // `withoutKeptRows`: a run that met kept rows it could not read makes them again.
  const k = keptFor(store, ROWS_KEY, (a) => (withoutKeptRows ? undefined : decodeSearchRows(a.out, a.rest)), {
    earlier: true,
    part: true,
  });
  const index = k.index();
  // The caller closes the index it is handed; one that fails here (kept rows found damaged as
  // they are kept again: KeptRowsUnreadable) is closed before the search is made again.
  try {
    if (k.kept) {
      const { rows, fieldText } = k.kept;
      const ranking = rankingContext(fieldText, rows);
      // What proves a typo (search-none.ts), kept once for rows kept before it was.
      if (ranking && k.other && !k.other.has(FIELDS_KEY)) k.other.put(FIELDS_KEY, encodeTypoCheck(rows, fieldText));
      const coverage = k.other && coverageAnswer(k.other, rows, k.kept.stamp);
      return { sessions: rows, index, coverage, ranking };
    }
    const earlier = index && !withoutKeptRows && (await fromEarlierRows(storeDir, k, index));
    if (earlier) {
      // The rows still true keep their fields as folded before: only the changed ones are folded.
      const { sessions, fieldText, unread } = earlier;
      const coverage = unread ? undefined : keepRows(k, sessions, fieldText);
      return { sessions, index, coverage, ranking: rankingContext(fieldText, sessions), unread };
    }
    const { sessions, diagnostics } = await scanWithIndex(storeDir, io, { index: index ?? null, found: k.found });
    const unread = unreadableSinceDiscovery(diagnostics, k.found);
    const coverage = unread ? undefined : keepRows(k, sessions, fieldTextOf(sessions));
    return { sessions, index, coverage, unread };
  } catch (err) {
    index?.close();
    throw err;
  }
}

/**
 * Keeps the rows for the next run, once the store has settled (keptFor), and what proves a
 * typo beside them; and the coverage answer of the rows as kept, so that what the index
 * covers of them is kept by this run's search (the next run reads it rather than the text
 * states: it was the run after the rows were kept that paid for them, again).
 */
function keepRows(
  k: Pick<KeptLookup<unknown>, "keep" | "other" | "found">,
  rows: readonly SearchRow[],
  fieldText: AnyFieldText,
): CoverageAnswer | undefined {
  if (!k.keep) return undefined;
  const stamp = rowsStamp();
  const { out, part } = encodeSearchRows(rows, k.found.files, fieldText, stamp);
  k.keep({ out, err: "", part });
  k.other?.put(FIELDS_KEY, encodeTypoCheck(rows, fieldText));
  return k.other && coverageAnswer(k.other, rows, stamp, true);
}

/**
 * The rows kept of the store before, still true of its files, and the few files that
 * changed summarized, with their field text (undefined: too many, or none kept); `unread`:
 * one of those could not be read (unreadableSinceDiscovery).
 */
async function fromEarlierRows(
  storeDir: string,
  k: { found: { files: SessionFile[] }; earlier?: Answer },
  index: StoreIndex,
): Promise<{ sessions: SearchRow[]; fieldText: AnyFieldText; unread: boolean } | undefined> {
  const kept = k.earlier && decodeSearchRows(k.earlier.out, k.earlier.rest);
  if (!kept) return undefined;
  const { rows, todo } = rowsStillTrue(kept, k.found.files);
  if (todo.length > Math.max(REUSE_SLACK, k.found.files.length / 10)) return undefined;
  // Their rows in the index where another run summarized them already, else read.
  const few = { files: todo, diagnostics: [] };
  const { sessions, diagnostics } = await scanStore(
    storeDir,
    {},
    { probe: false, cache: index.scans.forFew(), found: few },
  );
  // Newest first, as a scan of the store hands them over.
  const all = [...rows, ...sessions].sort((a, b) => b.mtimeMs - a.mtimeMs);
  return {
    sessions: all,
    fieldText: fieldTextAgain(kept.fieldText, kept.rows, all) ?? fieldTextOf(all),
    unread: unreadableSinceDiscovery(diagnostics, few),
  };
}

/** What the command was asked. */
interface Ask {
  query: Query;
  limit: number;
  includeTools: boolean;
  json: boolean;
  quiet: boolean;
  all: boolean;
  cwd: string;
  storeDir: string;
  /** --json's kept-answer key. */
  question?: SearchAnswerKey;
}

/** The search itself, on the store's rows: output written to `io`, and the exit status (and the JSON printed). */
async function answerSearch(
  ask: Ask,
  sessions: SearchRow[],
  index: StoreIndex | undefined,
  coverage: CoverageAnswer | undefined,
  io: CliIO,
  ranking?: MatchContext,
): Promise<{ code: number; printed?: string; later?: () => void; unread?: boolean }> {
  const { query, includeTools, limit } = ask;
  // A file that failed to be read here (EIO, EMFILE: the store's fingerprint does not hold
  // it) was taken for no match, or shown without snippets: this answer is not to be kept.
  let unread = false;
  const onUnreadable = () => {
    unread = true;
  };
  const inScope = ask.all ? () => true : cwdScope(ask.storeDir, ask.cwd);
  const scoped = sessions.filter(inScope);
  let covered = index && coverage?.read(index.db);
  // None kept for these rows: worked out now, once for the catch-up and the search, and kept
  // after (at 50,000 sessions the catch-up's pass over the text states, then this one, were
  // ~90 and ~60 ms).
  const worked = index && coverage && !covered ? coverage.workOut(index.db) : undefined;
  covered ??= worked;
  const later = index ? await catchUp(index, io, ask.storeDir, includeTools, sessions, covered) : undefined;
  // Caught up just now: what was kept (or worked out) is of the index before.
  if (covered && !covered.still(index!.db)) covered = undefined;
  // Only the best `limit` printed, and not how many more (--json, --quiet): with the index,
  // only the files that can be among them are checked, best first.
  const plan = searchPlan(query, ranking);
  const capped =
    index && (ask.json || ask.quiet) && !scoped.some((s) => Number.isNaN(modifiedTime(s)))
      ? await bestWithIndex(index, scoped, plan, includeTools, limit, covered?.known, ranking, onUnreadable)
      : undefined;
  const hits = capped?.hits ?? (await textHits(index, scoped, plan, includeTools, io, covered?.known, onUnreadable));
  // Kept for the next run on this store: as worked out, or (caught up since) from the text states again.
  if (worked && covered === worked) worked.keep();
  else if (index && coverage && !covered) coverage.keep(index.db);
  const found: Found[] = capped?.found ?? rankAll(plan, scoped, (s) => hits.get(s.path)?.held);
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
      // Gone or unreadable since: no snippets.
      unread = true;
    }
  }
  return { ...printFound(ask, shown, found.length - shown.length, io), later, unread };
}

/** The sessions shown, printed as asked (and how many more were found): the exit status, and the JSON printed. */
function printFound(ask: Ask, shown: Found[], more: number, io: CliIO): { code: number; printed?: string } {
  if (ask.json) return { code: 0, printed: output(io).json(shown.map((f) => resultJson(f, ask.query))) };
  if (!shown.length) {
    output(io).note(ask.all ? "no match\n" : `no match for ${sanitizeLine(ask.cwd)} (try --all)\n`);
    return { code: 1 };
  }
  output(io).lines(formatResults(shown, ask.query, ask.all));
  if (more > 0) output(io).note(`${groupDigits(more)} more (--limit N)\n`);
  return { code: 0 };
}

/** search's options (a host's search takes the same: src/remote/cli-remote.ts). */
export const SEARCH_OPTIONS = {
  ...STORE_OPTION,
  all: { type: "boolean", short: "a" },
  cwd: { type: "string" },
  json: { type: "boolean" },
  limit: { type: "string", short: "n" },
  tools: { type: "boolean" },
  ...QUIET_OPTION,
} as const;

export async function searchCommand(args: string[], given: CliIO): Promise<number> {
  const { values, positionals } = parse(args, SEARCH_OPTIONS, "search");
  const io = quietIO(given, values.quiet);
  const text = positionals.join(" ").trim();
  if (!text) throw usageError("search needs a query (see pi-sessions search --help)");
  if (values.all && values.cwd) throw usageError("--all and --cwd can't be combined");
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw usageError(`--limit takes a positive whole number (got '${values.limit}')`);
  const query = parseQuery(text);
  if (query.error) throw usageError(`bad query: ${query.error}`);
  const store = storeFromArgs(values["session-dir"], io);
  const cwd = resolve(io.cwd, values.cwd ?? ".");
  const includeTools = !!values.tools;
  const ask: Ask = {
    query,
    limit,
    includeTools,
    json: !!values.json,
    quiet: !!values.quiet,
    all: !!values.all,
    cwd,
    storeDir: store.dir,
    // --json on a store unchanged since the same question was last asked: its answer, as it was.
    question: values.json
      ? searchAnswerKey({ text, scope: values.all ? "" : cwd, limit, tools: includeTools }, query)
      : undefined,
  };
  // Kept rows' first messages are read as the search asks for them: a block found damaged
  // comes out mid-search, once notes were said but before the answer is printed. The notes
  // are held until then, and dropped when the search is made again without the kept rows
  // (it says its own), so that stderr is what a run without them says.
  const held = heldNotes(io);
  try {
    return await searchStore(ask, held.io);
  } catch (err) {
    if (!(err instanceof KeptRowsUnreadable)) throw err;
    held.drop();
    return await searchStore(ask, io, true);
  } finally {
    held.release();
  }
}

/** The search of the store, once: the exit status. `withoutKeptRows`: kept rows are not used (searchedSessions). */
async function searchStore(ask: Ask, io: CliIO, withoutKeptRows = false): Promise<number> {
  const kept = await discoverKept(ask.storeDir, io);
  try {
    return await searchKept(ask, io, kept, withoutKeptRows);
  } finally {
    // The kept rows' file, open for their first messages (AnswerCache.latestPart).
    kept.answers?.cache.close();
  }
}

/** searchStore on the store discovered. */
async function searchKept(ask: Ask, io: CliIO, kept: KeptStore, withoutKeptRows: boolean): Promise<number> {
  const out = output(io);
  const { question, query, includeTools } = ask;
  const answer = question && keptFor(kept, question.slot, (a) => decodeSearchAnswer(a, question));
  if (answer?.kept) {
    out.jsonBytes(answer.kept);
    return 0;
  }
  // A word no session holds (a typo) is proven so without reading the store's rows.
  if (await provenNone(kept, query, includeTools)) {
    const index = kept.index();
    try {
      const done = printFound(ask, [], 0, io);
      if (question && done.printed !== undefined && index) answer?.keep?.(encodeSearchAnswer(question, done.printed));
      return done.code;
    } finally {
      index?.close();
    }
  }
  const found = await searchedSessions(ask.storeDir, io, kept, withoutKeptRows);
  const { sessions, coverage, ranking } = found;
  let { index } = found;
  // The index failed while the store was read (it said so, in one line): not used further.
  if (index?.scans.failed) {
    index.close();
    index = undefined;
  }
  // The background index, started once the answer is out and the index closed.
  let later: (() => void) | undefined;
  try {
    let done: Awaited<ReturnType<typeof answerSearch>>;
    try {
      done = await answerSearch(ask, sessions, index, coverage, io, ranking);
    } catch (err) {
      // The index is a cache: any error of it (locked past the wait, a full disk, damage
      // found only now) and the search is made again from the files, with one line to say so.
      if (!index || !isIndexError(err)) throw err;
      output(io).note(`pi-sessions: searched without the index (${oneLine(err)})\n`);
      index.close();
      index = undefined;
      done = await answerSearch(ask, sessions, undefined, undefined, io, ranking);
    }
    // Kept only when the index answered all of it (one kept beside an index that failed
    // would outlive the failure), and neither the scan nor the search failed to read a file.
    if (question && done.printed !== undefined && index && !found.unread && !done.unread)
      answer?.keep?.(encodeSearchAnswer(question, done.printed));
    later = done.later;
    return done.code;
  } finally {
    index?.close();
    later?.();
  }
}

/** Whether an error is SQLite's (node:sqlite's), i.e. the index's. */
function isIndexError(err: unknown): boolean {
  return (err as { code?: unknown })?.code === "ERR_SQLITE_ERROR";
}

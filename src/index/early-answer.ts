import {
  linePrefilter,
  matchEntry,
  bodyHit,
  searchEach,
  SnippetLater,
  type SnippetText,
  textTerms,
  type BodyHit,
  type FileSeen,
  type FullTextOptions,
  type SearchTarget,
  type TextTerm,
} from "../search/fulltext.js";
import type { Query } from "../search/query.js";
import { statSync } from "node:fs";
import { trace } from "../launcher/trace.js";
import { fsPath } from "../store/fs-path.js";
import { readLinesSync } from "../store/line-reader.js";
import type { IndexDb } from "./index-db.js";
import { fileLinesSql } from "./runs.js";
import {
  fidLookup,
  ftsQuery,
  gramsOf,
  needed,
  parseLine,
  parseNumbers,
  placedCoverage,
  readRawLine,
  withFile,
  yieldToLoop,
  type Candidate,
  type KnownCoverage,
} from "./index-search.js";

/*
 * The browser's full-text search of common words, answered early. A word in most sessions
 * names tens of thousands of files; checking each against its lines took seconds at 50,000
 * sessions, for a screenful shown. Here the index names the files holding each word (the
 * same superset of its lines searchWithIndex starts from), the sessions about to be shown
 * (the list's order, `place`) are checked against their files first, the rest are reported
 * as the index names them (their snippets read when their rows are drawn), and then checked
 * in slices, best first: one its file turns down is taken back (onMiss), one that holds the
 * words differently reported again. When done, the hits are those searchWithIndex finds.
 * A file the index does not cover as it is now is read whole before anything is reported
 * as named, as searchWithIndex reads it.
 */

export interface EarlyOptions extends FullTextOptions {
  onMiss(path: string, seen: FileSeen): void;
  onChecking(left: number): void;
  /** What the index covers, as kept (else read from it). */
  known?: KnownCoverage;
  /** The sessions checked before the rest are reported as named: a screenful and more. */
  checkFirst?: number;
  /** At or under this many files naming every word, searchWithIndex answers (it checks each file's candidate lines, which cost little). */
  above?: number;
}

export interface EarlyResult {
  searched: number;
  matched: number;
  aborted: boolean;
  readWhole: number;
}

const CHECK_FIRST = 100;
const EARLY_ABOVE = 2000;
/** Files checked between two turns of the event loop (keys and frames go first). */
const SLICE = 200;
const SAY_EVERY_MS = 500;
/** At most this many files, of this many bytes in all, read whole before the first hits checked are reported (see searchEarly). */
const READ_WHOLE_HELD = 32;
const READ_WHOLE_HELD_BYTES = 2 * 1024 * 1024;
/** More words than a bit mask holds: searchWithIndex answers. */
const MAX_TERMS = 30;

/** The files with a candidate line of a term, as a bit per fid (a word in most sessions names most fids). */
interface Named {
  has(fid: number): boolean;
  count: number;
}

/**
 * The last few terms' files, while the index is the same: typing "parser cache", the files
 * of `parser` are named at the space and asked again at every key after it (~100-200 ms
 * each at 50,000 sessions).
 */
const namedMemo = new WeakMap<IndexDb, { mark: string; byQuery: Map<string, Named | null> }>();
const NAMED_KEPT = 8;

function filesNaming(db: IndexDb, grams: string[], includeTools: boolean): Named | null {
  const mark = db.changeMark();
  let memo = namedMemo.get(db);
  if (memo?.mark !== mark) namedMemo.set(db, (memo = { mark, byQuery: new Map() }));
  const key = `${includeTools ? "tools" : "chat"}\u0000${ftsQuery(grams)}`;
  if (memo.byQuery.has(key)) return memo.byQuery.get(key)!;
  const named = namedNow(db, grams, includeTools);
  if (memo.byQuery.size >= NAMED_KEPT) memo.byQuery.delete(memo.byQuery.keys().next().value!);
  memo.byQuery.set(key, named);
  return named;
}

function namedNow(db: IndexDb, grams: string[], includeTools: boolean): Named | null {
  const fids: Float64Array[] = [];
  for (const table of includeTools ? ["chat", "tools"] : ["chat"]) {
    const got = db
      .q(
        `SELECT group_concat(fid) AS f FROM (SELECT DISTINCT l.fid AS fid FROM ${table}
           JOIN lines l ON l.rid = ${table}.rowid WHERE ${table} MATCH ?)`,
      )
      .get(ftsQuery(grams)) as { f: string | null } | undefined;
    fids.push(parseNumbers(got?.f ?? ""));
  }
  let max = 0;
  for (const l of fids) for (const f of l) if (f > max) max = f;
  // Fids are rowids given again from the top: a store's own number of files, give or take.
  if (max > 1 << 24) return null;
  const bits = new Uint8Array(max + 1);
  let count = 0;
  for (const l of fids)
    for (const f of l)
      if (!bits[f]) {
        bits[f] = 1;
        count++;
      }
  return { has: (fid) => fid < bits.length && bits[fid] === 1, count };
}

/** Every line the index holds of a file (the conversation's; the tool texts' too when searched), once each, in file order. */
function linesOf(db: IndexDb, fid: number, includeTools: boolean): Candidate[] {
  // As one text ("off,len,off,len…"): a row object per line cost a third more, for 36,000 files.
  const got = db
    .q(
      `SELECT group_concat(off || ',' || len) AS l FROM (${fileLinesSql("l.off AS off, l.len AS len", !includeTools)})`,
    )
    .get(fid) as { l: string | null } | undefined;
  const n = parseNumbers(got?.l ?? "");
  const out: Candidate[] = [];
  for (let i = 0; i + 1 < n.length; i += 2)
    if (out.length === 0 || out[out.length - 1].off !== n[i]) out.push({ off: n[i], len: n[i + 1] });
  return out;
}

/** Every line of a file as it is now (the index's lines of it no longer trusted); none when it cannot be read. */
function allLines(path: string): Candidate[] {
  const out: Candidate[] = [];
  try {
    // Read chunk by chunk, as every reader: a row being drawn holds no whole file in memory.
    readLinesSync(path, (ref) => {
      // A torn last line is not yet a line; one past the readers' cap is passed over.
      if (ref.terminated && ref.oversize === undefined && ref.end > ref.start)
        out.push({ off: ref.offset, len: ref.end - ref.start });
    });
  } catch {
    return [];
  }
  return out;
}

/** A file's size and modification time now; the target's when it is gone. */
function seenNow(t: SearchTarget): FileSeen {
  try {
    const st = statSync(fsPath(t.path));
    return { bytes: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return { bytes: t.bytes, mtimeMs: t.mtimeMs };
  }
}

/** Whether a file is no longer as the target says (written to, or gone). */
function changedSince(t: SearchTarget): boolean {
  try {
    const st = statSync(fsPath(t.path));
    return st.size !== t.bytes || st.mtimeMs !== t.mtimeMs;
  } catch {
    return true;
  }
}

/**
 * The search, or null when searchWithIndex should answer (a pattern or a short word the
 * index cannot narrow, few files named, more words than a mask holds). Throws only on an
 * index error (before anything is reported: the caller then searches without it).
 */
export async function searchEarly(
  db: IndexDb,
  targets: readonly SearchTarget[],
  query: Query,
  opts: EarlyOptions,
): Promise<EarlyResult | null> {
  const terms = textTerms(query);
  if (terms.length === 0 || terms.length > MAX_TERMS || query.terms.some((t) => t.kind === "never")) return null;
  const grams = terms.map(gramsOf);
  if (grams.some((g) => g === null)) return null;
  const { includeTools, signal } = opts;
  const result: EarlyResult = { searched: 0, matched: 0, aborted: false, readWhole: 0 };
  // One turn of the event loop first: a key that came meanwhile aborts this search before
  // its queries block the thread.
  await yieldToLoop();
  if (signal?.aborted) return { ...result, aborted: true };
  // A turn of the event loop between the steps, each ~100-300 ms at 50,000 sessions: a key
  // typed meanwhile is read, and its new query aborts this one (what is named stays kept).
  const stop = async () => {
    await yieldToLoop();
    return !!signal?.aborted;
  };
  // The files named and the text states must be of one index: one that changed between them
  // (a commit of the scan thread or of `pi-sessions index`) is asked again.
  let named: Named[];
  /** Each target's fid by its place (undefined: not covered). */
  let fidAt: (k: number) => number | undefined;
  let textMark = "";
  for (let tries = 0; ; tries++) {
    if (tries === 3) return null; // the index keeps changing: searchWithIndex answers
    const lookedUp = db.changeMark();
    named = [];
    for (const g of grams) {
      const n = filesNaming(db, g!, includeTools);
      if (!n) return null;
      named.push(n);
      if (await stop()) return { ...result, aborted: true };
    }
    if (named.every((n) => n.count <= (opts.above ?? EARLY_ABOVE))) return null;
    trace(`early: files named ${named.map((n) => n.count).join(" ")}`);
    // Each target the index covers, decided by the words it names there (as searchWithIndex's
    // verdicts): no needed word named, no match; else a candidate, with the words named as a mask.
    const known = opts.known;
    if (known) fidAt = (k) => known(targets[k], includeTools);
    else {
      // By place, kept for these targets while the index is the same (placedCoverage): the
      // text states read now, if not yet (storeSearch's warm reads them as the query is typed).
      const c = placedCoverage(db, targets);
      const placed = includeTools ? c.tools : c.chat;
      fidAt = (k) => (placed[k] < 0 ? undefined : placed[k]);
    }
    textMark = db.changeMark();
    if (textMark === lookedUp) break;
  }
  trace("early: text states read");
  if (await stop()) return { ...result, aborted: true };
  const readWhole: SearchTarget[] = [];
  const cand: number[] = [];
  const candFid: number[] = [];
  const candHeld: number[] = [];
  const candNeed: (readonly boolean[] | undefined)[] = [];
  for (let k = 0; k < targets.length; k++) {
    if (k % 10_000 === 9_999 && (await stop())) return { ...result, aborted: true };
    const t = targets[k];
    const fid = fidAt(k);
    if (fid === undefined) {
      readWhole.push(t);
      continue;
    }
    let mask = 0;
    for (let i = 0; i < terms.length; i++) if (named[i].has(fid)) mask |= 1 << i;
    const need = mask === 0 ? null : opts.need ? opts.need(t.path) : undefined;
    let ok = need !== null;
    for (let i = 0; ok && i < terms.length; i++) if (!(mask & (1 << i)) && (need?.[i] ?? true)) ok = false;
    if (!ok) {
      result.searched++;
      continue;
    }
    cand.push(k);
    candFid.push(fid);
    candHeld.push(mask);
    candNeed.push(need ?? undefined);
  }
  trace(`early: ${cand.length} candidates, ${readWhole.length} to read`);
  // One array per set of words named (a few at most), not one per candidate: at 50,000
  // sessions 36,000 were made to order them and 36,000 more reported with the answer.
  const heldByMask = new Map<number, readonly boolean[]>();
  const heldOf = (mask: number) => {
    let held = heldByMask.get(mask);
    if (!held) heldByMask.set(mask, (held = terms.map((_, i) => (mask & (1 << i)) !== 0)));
    return held;
  };
  /** Whether a file holds other words than the index named it for. */
  const heldDiffers = (hit: BodyHit, j: number) => hit.held.some((h, i) => h !== ((candHeld[j] & (1 << i)) !== 0));

  // Best first: in the list's order as the index names their words, else (no place) those
  // needing fewer words of their conversation first, in the targets' order.
  const order = Int32Array.from(cand.keys());
  if (opts.place) {
    const group = new Float64Array(cand.length);
    const rank = new Float64Array(cand.length);
    const at = new Float64Array(cand.length);
    for (let j = 0; j < cand.length; j++) {
      const p = opts.place(targets[cand[j]].path, heldOf(candHeld[j]));
      group[j] = p ? (p.group ?? 0) : Infinity;
      rank[j] = p ? p.rank : -Infinity;
      at[j] = p ? p.at : Infinity;
    }
    order.sort((a, b) => group[a] - group[b] || rank[b] - rank[a] || at[a] - at[b] || a - b);
  } else {
    const n = Int32Array.from(candNeed, (need) => needed(need, terms.length));
    order.sort((a, b) => n[a] - n[b] || a - b);
  }

  trace("early: ordered");
  if (await stop()) return { ...result, aborted: true };
  const mayHold = linePrefilter(terms, includeTools);
  const listedOf = (mask: number) => new Set(terms.filter((_, i) => (mask & (1 << i)) !== 0));
  /** What the index covers as of its last change seen here (made when it first changes under the search). */
  let coveredNow: { at: string; fidOf: (t: SearchTarget) => number | undefined } | undefined;
  /**
   * Whether lines the index gave of candidate j (before this is asked) are still its file's
   * lines: the index unchanged since the text states were read, or the file still covered
   * with the same text state (the index dropped its text, or indexed it again, meanwhile).
   */
  const trusted = (j: number): boolean => {
    const now = db.changeMark();
    if (now === textMark) return true;
    if (coveredNow?.at !== now) coveredNow = { at: now, fidOf: fidLookup(db, includeTools) };
    return coveredNow.fidOf(targets[cand[j]]) === candFid[j];
  };
  /**
   * A file's hit from every line the index holds of it, in file order; undefined when a line
   * is not where the index says, or the index no longer holds the lines that turned it down.
   * `firstHitOnly`: its snippet alone, from the first line holding a word (held then says nothing).
   */
  const check = (j: number, withSnippet: boolean | "lazy", firstHitOnly = false): BodyHit | null | undefined => {
    let lines: Candidate[];
    try {
      lines = linesOf(db, candFid[j], includeTools);
    } catch {
      return undefined; // the index failed under us: the file says
    }
    const hit = checkLines(j, lines, withSnippet, firstHitOnly);
    const differs = hit === null || (!firstHitOnly && hit && heldDiffers(hit, j));
    // A turn-down (or other words) from lines the index no longer holds says nothing of the
    // file: it is read whole (a hit is taken back only when its file turns it down).
    if (!differs) return hit;
    try {
      if (trusted(j)) return hit;
    } catch {
      // the index failed under us: the file says
    }
    return undefined;
  };
  /** A file's hit from these lines of it (see check). */
  const checkLines = (
    j: number,
    lines: readonly Candidate[],
    withSnippet: boolean | "lazy",
    firstHitOnly: boolean,
  ): BodyHit | null | undefined => {
    const path = targets[cand[j]].path;
    const listed = listedOf(candHeld[j]);
    const pending = new Set<TextTerm>(listed);
    let snippet: SnippetText | null = null;
    try {
      return withFile(path, (fd) => {
        for (const c of lines) {
          const raw = readRawLine(fd, c);
          if (raw === undefined) return undefined;
          // A line that cannot hold a word still pending is not parsed (searchFile's prefilter).
          const text = mayHold(raw, pending);
          if (text === null) continue;
          const entry = parseLine(text);
          if (entry === undefined) return undefined;
          if (entry === null) continue;
          const hit = matchEntry(entry, pending, includeTools, withSnippet);
          snippet ??= hit;
          if (firstHitOnly && snippet !== null) return { snippet, held: [] };
          if (pending.size === 0) break;
        }
        return bodyHit(terms, (t) => pending.has(t) || !listed.has(t), candNeed[j], snippet);
      });
    } catch {
      return null; // gone since the scan: no match, as without the index
    }
  };
  /** The first hit of a named file, read when its row is drawn. */
  const snippetOf = (j: number) => () => {
    // Up to its first hit only: made while its row is drawn (a long session need not be read on).
    const hit = check(j, true, true) ?? checkLines(j, allLines(targets[cand[j]].path), true, true);
    return hit ? String(hit.snippet) : "";
  };
  const report = (path: string, snippet: SnippetText, held: readonly boolean[], unchecked = false) => {
    result.matched++;
    opts.onMatch(path, snippet, held, unchecked);
  };

  const miss = (path: string, seen: FileSeen) => {
    result.matched--;
    opts.onMiss(path, seen);
  };

  // The first screen and more, checked before anything is reported as named: checked until
  // that many hold the words (the first rows shown are then hits their files confirmed, not
  // the first candidates, many of which may be turned down).
  const want = opts.checkFirst ?? CHECK_FIRST;
  let first = 0;
  /** The hits confirmed, reported together with the rest of the answer when little is left to read (below). */
  const firstHits: [string, BodyHit][] = [];
  for (let confirmed = 0; first < order.length && confirmed < want; first++) {
    if (first % SLICE === SLICE - 1 && (await stop())) return { ...result, aborted: true };
    const j = order[first];
    const hit = check(j, "lazy");
    if (hit === undefined) readWhole.push(targets[cand[j]]);
    else {
      result.searched++;
      if (hit) {
        confirmed++;
        firstHits.push([targets[cand[j]].path, hit]);
      }
    }
  }
  if (signal?.aborted) return { ...result, aborted: true };
  // Few files to read whole (~1 ms each): the answer is whole within milliseconds, and said
  // as one batch. Said first, its first hit was a batch of its own: at 50,000 sessions every
  // session ranked again and a frame drawn (50-130 ms) between the last key and the answer.
  // The files read whole are held with them (and their progress unsaid): read 4 at a time,
  // each one reported as it was read let the browser take a batch in between reads.
  const reportFirst = () => firstHits.splice(0).forEach(([path, hit]) => report(path, hit.snippet, hit.held));
  // By bytes too: the file most often read whole is the one pi is appending to, often tens of MB.
  let wholeBytes = 0;
  for (const t of readWhole) wholeBytes += t.bytes;
  const hold = readWhole.length <= READ_WHOLE_HELD && wholeBytes <= READ_WHOLE_HELD_BYTES;
  if (!hold) reportFirst();
  // What the index cannot say, read as searchWithIndex reads it (any of it may rank first).
  await searchEach(
    readWhole.map((t) => t.path),
    terms,
    opts,
    (path, hit) => {
      result.searched++;
      result.readWhole++;
      if (hold) {
        if (hit !== null) firstHits.push([path, hit]);
        return;
      }
      if (hit !== null) report(path, hit.snippet, hit.held);
      opts.onProgress?.(result.searched);
    },
  );
  if (signal?.aborted) return { ...result, aborted: true };
  reportFirst();
  // The rest as the index names them, best first: with the above, every session answered.
  const left = order.length - first;
  for (let x = first; x < order.length; x++) {
    const j = order[x];
    result.searched++;
    report(targets[cand[j]].path, new SnippetLater(snippetOf(j)), heldOf(candHeld[j]), true);
  }
  trace(`early: first ${first} checked, ${left} reported as named`);
  opts.onChecking(left);
  let said = Date.now();
  opts.onProgress?.(result.searched);
  // Through the timers first: the browser takes the answer in on a timer, and the first slice
  // (a turn of the event loop's check phase: after reading a file whole, before any timer)
  // held it back by a slice's checking (100-250 ms at 50,000 sessions under load).
  await new Promise((r) => setTimeout(r, 0));
  // Then every named one against its file, a slice at a time.
  for (let x = first; x < order.length && !signal?.aborted; x++) {
    if ((x - first) % SLICE === 0) {
      // The count said twice a second: each says it in a frame, and a frame of the whole
      // screen at every slice (~20 a second) cost more than the checking.
      if (Date.now() - said >= SAY_EVERY_MS) {
        said = Date.now();
        opts.onChecking(order.length - x);
      }
      await yieldToLoop();
      if (signal?.aborted) break;
    }
    const j = order[x];
    const path = targets[cand[j]].path;
    let hit = check(j, false);
    // Turned down, or holding other words, by a file pi wrote to since the search began: the
    // words may be in what it wrote (and the search of it the browser started then may have
    // reported them already), so it is read as it is now.
    const differs = hit === null || (hit && heldDiffers(hit, j));
    if (differs && changedSince(targets[cand[j]])) hit = undefined;
    if (hit === undefined) {
      // Not as the index says: the file read whole, its hit (with its own snippet) reported again.
      result.readWhole++;
      let read: BodyHit | null = null;
      // As it was before it was read: written to meanwhile, the take-back is older than the file (ignored).
      const seen = seenNow(targets[cand[j]]);
      await searchEach([path], terms, opts, (_, h) => (read = h));
      if (signal?.aborted) break;
      if (read === null) miss(path, seen);
      else opts.onMatch(path, (read as BodyHit).snippet, (read as BodyHit).held);
    } else if (hit === null) {
      const t = targets[cand[j]]; // not changed since (changedSince above): as the search took it
      miss(path, { bytes: t.bytes, mtimeMs: t.mtimeMs });
    } else if (heldDiffers(hit, j)) {
      // Its words as its file holds them; the snippet still read when drawn.
      opts.onMatch(path, new SnippetLater(snippetOf(j)), hit.held);
    } else opts.onConfirmed?.(path);
  }
  if (!signal?.aborted) opts.onChecking(0);
  trace(`early: checked${signal?.aborted ? " (aborted)" : ""}`);
  result.aborted = !!signal?.aborted;
  return result;
}

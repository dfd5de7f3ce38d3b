import { basename, dirname } from "node:path";
import type { Diagnostic, Lineage, SessionProbe, SessionSummary } from "../model/types.js";
import { Batcher } from "./batcher.js";
import { discoverFiles, type SessionFile } from "../store/discover.js";
import { resolveLineage, sameLineage } from "../store/lineage.js";
import { forEachLimited } from "../store/pool.js";
import { cwdFolderName } from "../store/scope.js";
import type { KeptSession, ScanCache } from "../store/scan-cache.js";
import { isDiagnostic, probeSessionFile, scanSessionFile, type FileScan } from "../store/scan-file.js";

export interface ScanHandlers {
  /** Number of candidate files, once discovery is done. */
  onDiscovered?(total: number): void;
  /** Provisional rows from header probes, most recently written first, in batches. */
  onProbes?(probes: SessionProbe[]): void;
  /** Complete summaries as full scans finish, in batches. */
  onSummaries?(summaries: SessionSummary[]): void;
  /**
   * The summaries the cache kept, as rows of its snapshot (far cheaper to hand to another
   * thread, which reads the snapshot itself, than ten thousand objects), and its generation:
   * when given and the cache can, instead of onSummaries.
   */
  onKeptRows?(rows: number[], gen: string): void;
  onDiagnostic?(d: Diagnostic): void;
  /** A line for the user about the scan itself (the index was damaged, say). */
  onNotice?(message: string): void;
  /** The index's text being brought up to date after the scan (scan worker only). */
  onIndexing?(pass: "text" | "tools", done: number, total: number): void;
  /** Everything, with lineage resolved. */
  onComplete?(result: ScanResult): void;
}

export interface ScanOptions {
  /** Files read in full at once. */
  concurrency?: number;
  signal?: AbortSignal;
  /** Skip the header probe pass (the CLI's `list` needs only full summaries). */
  probe?: boolean;
  /**
   * Read files with blocking calls (see ReadLinesOptions.sync): faster, but the event
   * loop stalls while reading. Default: only when the caller passed no handlers at all,
   * i.e. just awaits the result and draws nothing meanwhile (the CLI's `list`); any
   * caller that listens for progress (a UI) keeps non-blocking reads.
   */
  blocking?: boolean;
  /**
   * The folder the browser was started in: its sessions (pi's list(cwd) rule) are probed and
   * read first, so a first frame scoped to "this folder" has its rows without waiting for
   * the rest of the store.
   */
  firstCwd?: string;
  /**
   * Scans kept from an earlier run (the persistent index): files it knows unchanged are
   * not read, their summaries come first, before any probe; fresh scans are handed to it.
   */
  cache?: ScanCache;
  /** Discovery already done by the caller (it fingerprinted the store first): not done again. */
  found?: { files: SessionFile[]; diagnostics: Diagnostic[] };
  /**
   * What the result keeps of each summary read (those the cache kept come as they are): a
   * command that needs a few fields makes each a row of them at once. The row must keep
   * path, parentSessionPath and lineage (lineage is resolved on the rows; path alone with lineage: false).
   */
  hold?: (s: SessionSummary) => SessionSummary;
  /**
   * false: the caller shows no lineage (the text `list`, `stats`): none is resolved, and a
   * row `hold` makes needs only the path. At 50,000 sessions resolving it was a set of every
   * path and a look-up of each parent, for nothing.
   */
  lineage?: boolean;
}

export interface ScanResult {
  sessions: SessionSummary[];
  diagnostics: Diagnostic[];
  /**
   * The sessions whose lineage the final resolution changed from what onSummaries handed
   * over (a fork's parent found): all a listener that kept those needs to hear again.
   */
  relinked: SessionSummary[];
  /**
   * When the kept summaries went as rows (onKeptRows), which `sessions` leaves out: the
   * lineage of each such row but those whose lineage is { status: "none" }.
   */
  keptLineage?: Array<[row: number, lineage: Lineage]>;
}

/** The files that are surely the folder's by where they lie: those in its project folder. */
function inFolderFirst(storeDir: string, cwd: string): (f: SessionFile) => boolean {
  const folder = cwdFolderName(cwd);
  return (f) => basename(dirname(f.path)) === folder;
}

/** The order files are probed and read in: newest first, the launch folder's (if given) before all others. */
export function scanOrder(files: SessionFile[], storeDir: string, firstCwd?: string): SessionFile[] {
  const sorted = files.sort((a, b) => b.mtimeMs - a.mtimeMs);
  if (firstCwd !== undefined) moveToFront(sorted, inFolderFirst(storeDir, firstCwd));
  return sorted;
}

/** Stable: the chosen files first, each group still newest first. */
function moveToFront<T>(items: T[], first: (x: T) => boolean): void {
  const front = items.filter(first);
  if (front.length === 0 || front.length === items.length) return;
  const rest = items.filter((x) => !first(x));
  items.splice(0, items.length, ...front, ...rest);
}

/**
 * Scans a store progressively and never holds more than a few files' lines at once:
 * discovery (stat only), then bounded header probes of every file, newest first, so
 * the first rows can be drawn at once; then full streaming scans with bounded
 * concurrency. Damaged files become diagnostics; nothing throws but a missing root.
 */
export async function scanStore(
  dir: string,
  handlers: ScanHandlers = {},
  options: ScanOptions = {},
): Promise<ScanResult> {
  const { signal } = options;
  const diagnostics: Diagnostic[] = [];
  const diagnose = (d: Diagnostic) => {
    diagnostics.push(d);
    handlers.onDiagnostic?.(d);
  };
  const { cache } = options;
  const found = options.found ?? (await discoverFiles(dir));
  found.diagnostics.forEach(diagnose);
  const files = scanOrder(found.files, dir, options.firstCwd);
  handlers.onDiscovered?.(files.length);

  const rejected = new Set<string>();
  const sessions: SessionSummary[] = [];
  /** Kept sessions handed over as rows: in lineage's resolution, not in the result. */
  let keptSessions: KeptSession[] | undefined;
  let todo = files;
  const asRows = handlers.onKeptRows ? cache?.keptRows?.(files, options.lineage !== false) : undefined;
  let kept: Map<string, FileScan> | undefined;
  if (asRows) {
    todo = asRows.todo;
    asRows.diagnostics.forEach(diagnose);
    keptSessions = asRows.sessions;
    kept = asRows.scans;
    // With files left to read, the kept rows go at once; with none, with the completion
    // (lineage away), so that the other thread makes one frame of the whole list.
    if (todo.length) handlers.onKeptRows!(asRows.rows, asRows.gen);
  } else if (cache) {
    kept = cache.lookup(files);
    todo = files.filter((f) => !kept!.has(f.path));
  }
  if (kept?.size) {
    const hits: SessionSummary[] = [];
    for (const f of files) {
      const scan = kept.get(f.path);
      if (scan?.kind === "session") hits.push(scan.summary);
      else if (scan) diagnose(scan.diagnostic);
    }
    sessions.push(...hits);
    // Newest first, as probes would have come; big batches, as they cost nothing to make.
    for (let i = 0; i < hits.length; i += 1000) handlers.onSummaries?.(hits.slice(i, i + 1000));
  }
  const sync = options.blocking ?? Object.keys(handlers).length === 0;
  if (options.probe !== false && handlers.onProbes) {
    const probes = new Batcher<SessionProbe>((b) => handlers.onProbes!(b), 50, 16);
    await forEachLimited(
      todo,
      16,
      async (f) => {
        const p = await probeSessionFile(f, undefined, { sync });
        if (p === null) return;
        if (isDiagnostic(p)) {
          rejected.add(f.path);
          diagnose(p);
        } else probes.push(p);
      },
      signal,
    );
    probes.flush();
  }

  const summaries = new Batcher<SessionSummary>((b) => handlers.onSummaries?.(b), 64, 50);
  await forEachLimited(
    todo.filter((f) => !rejected.has(f.path)),
    options.concurrency ?? 4,
    async (f) => {
      const readFrom = Date.now();
      const r: FileScan = await scanSessionFile(f, { sync });
      cache?.remember(f, r, readFrom);
      if (r.kind === "diagnostic") diagnose(r.diagnostic);
      else {
        sessions.push(options.hold ? options.hold(r.summary) : r.summary);
        summaries.push(r.summary);
      }
    },
    signal,
  );
  summaries.flush();
  cache?.flush();
  let relinked: SessionSummary[] = [];
  if (options.lineage !== false) {
    const before = sessions.map((x) => x.lineage);
    if (keptSessions)
      resolveLineage<Pick<SessionSummary, "path" | "parentSessionPath" | "lineage">>([...keptSessions, ...sessions]);
    else resolveLineage(sessions);
    relinked = sessions.filter((x, i) => !sameLineage(x.lineage, before[i]));
  }
  const result: ScanResult = { sessions, diagnostics, relinked };
  if (keptSessions && options.lineage !== false)
    result.keptLineage = keptSessions.filter((k) => k.lineage.status !== "none").map((k) => [k.row, k.lineage]);
  if (asRows && !todo.length) handlers.onKeptRows!(asRows.rows, asRows.gen);
  handlers.onComplete?.(result);
  return result;
}

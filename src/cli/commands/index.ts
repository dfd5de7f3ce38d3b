import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { answersDirOf, removeIndexFiles } from "../../index/index-db.js";
import { indexPathFor, indexWanted } from "../../index/index-location.js";
import { dropOrphanText } from "../../index/forget.js";
import { indexStaleText } from "../../index/text-index.js";
import { readersWanted, TextReaders } from "../../index/text-readers.js";
import { scanStore } from "../../scan/scan-store.js";
import { formatAgo, formatBytes, groupDigits } from "../../text/format.js";
import { sanitizeLine } from "../../text/sanitize.js";
import type { SessionSummary } from "../../model/types.js";
import { collectGarbage } from "../common/collect-garbage.js";
import { CliError, usageError } from "../common/errors.js";
import { quietIO, type CliIO } from "../common/io.js";
import { output } from "../common/output.js";
import { parse, STORE_OPTION, QUIET_OPTION } from "../common/parse.js";
import { BACKGROUND_ENV } from "../common/index-later.js";
import { takeIndexerLock } from "../common/indexer-lock.js";
import { openIndex, scanWithIndex } from "../common/scan-indexed.js";
import { storeFromArgs } from "../common/store-arg.js";
import { trace, tracing } from "../../launcher/trace.js";

/** What `index` holds of a summary read: its path alone (it counts them; a scan with lineage: false reads nothing of its rows). */
const pathOnly = (s: SessionSummary): Pick<SessionSummary, "path"> => ({ path: s.path });

/** Files between two trace lines of the scan or the text (PI_SESSIONS_TRACE), unless PI_SESSIONS_TRACE_EVERY says. */
const TRACE_EVERY = 5000;

/** PI_SESSIONS_TRACE_EVERY's whole number of files, or TRACE_EVERY. */
function traceEvery(env: NodeJS.ProcessEnv): number {
  const n = Number(env.PI_SESSIONS_TRACE_EVERY);
  return Number.isInteger(n) && n > 0 ? n : TRACE_EVERY;
}

/**
 * A phase of `index` done (PI_SESSIONS_TRACE): the process's CPU so far and its memory, to
 * tell where a build's time and its peak go (the scan, the text, the packing at the end).
 */
function tracePhase(what: string): void {
  if (!tracing) return;
  const cpu = process.cpuUsage();
  const m = process.memoryUsage();
  const mb = (n: number) => (n / 1048576).toFixed(1);
  trace(
    `index ${what}: cpu ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s, rss ${mb(m.rss)} MB, heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} MB, external ${mb(m.external)} MB`,
  );
}

/** The index's file and its WAL: what it takes on disk (with the kept answers beside it), and when it was last written. */
function onDisk(path: string): { bytes: number; modified: Date | null } {
  let bytes = 0;
  let modified: Date | null = null;
  for (const suffix of ["", "-wal"]) {
    try {
      const st = statSync(path + suffix);
      bytes += st.size;
      if (!modified || st.mtime > modified) modified = st.mtime;
    } catch {
      // Not there.
    }
  }
  const answers = answersDirOf(path);
  try {
    for (const name of readdirSync(answers)) bytes += statSync(join(answers, name)).size;
  } catch {
    // None kept (or one gone while counting).
  }
  return { bytes, modified };
}

/** How many of the sessions have their text in the index: "none", "3 of 14 sessions", "all 14 sessions". */
function share(n: number, total: number): string {
  if (n === 0) return "none";
  return n >= total ? `all ${groupDigits(total)} sessions` : `${groupDigits(n)} of ${groupDigits(total)} sessions`;
}

/** --status's "indexed" line: whose conversations and whose tool output a search finds in the index. */
function indexedText(exists: boolean, sessions: number, text: number, tools: number): string {
  if (!exists) return "nothing yet (pi-sessions index builds it)";
  if (sessions === 0) return "nothing (no sessions)";
  return `conversations: ${share(text, sessions)}; tool output: ${share(tools, sessions)}`;
}

export async function indexCommand(args: string[], given: CliIO): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      ...STORE_OPTION,
      ...QUIET_OPTION,
      rebuild: { type: "boolean" },
      status: { type: "boolean" },
      json: { type: "boolean" },
    },
    "index",
  );
  const io = quietIO(given, values.quiet);
  const out = output(io);
  if (positionals.length) throw usageError(`index takes no arguments (got '${positionals[0]}')`);
  if (values.rebuild && values.status) throw usageError("--rebuild and --status can't be combined");
  const store = storeFromArgs(values["session-dir"], io);
  const path = indexPathFor(store.dir, io.env);
  if (!path) throw new CliError("no cache folder for the index (set XDG_CACHE_HOME or PI_SESSIONS_CACHE_DIR)", 1);
  if (!indexWanted(io.env)) throw new CliError("the index is turned off (PI_SESSIONS_INDEX=0)", 1);

  if (values.status) {
    const exists = existsSync(path);
    const disk = onDisk(path);
    let sessions = 0;
    let textIndexed = 0;
    let toolsIndexed = 0;
    let problem: string | undefined;
    if (exists) {
      const { sessions: list, index } = await scanWithIndex(store.dir, quietIO(io, true));
      sessions = list.length;
      if (index) {
        const row = index.db
          .q(
            `SELECT count(*) AS n, coalesce(sum(text_tools), 0) AS tools FROM files WHERE summary IS NOT NULL
             AND text_size IS size AND text_mtime IS mtime AND text_ino IS ino AND text_ctime IS ctime`,
          )
          .get() as { n: number; tools: number };
        textIndexed = row.n;
        toolsIndexed = row.tools;
        index.close();
      } else problem = "cannot be opened (it is rebuilt on the next run)";
    }
    const status = {
      path,
      exists,
      bytes: disk.bytes,
      updated: disk.modified?.toISOString() ?? null,
      sessions,
      textIndexed,
      toolsIndexed,
      problem: problem ?? null,
    };
    if (values.json) {
      out.json(status);
      return 0;
    }
    const lines = [
      `index     ${sanitizeLine(path)}${exists ? "" : " (not built yet)"}`,
      `size      ${formatBytes(disk.bytes)}`,
      // Not built: the store was not scanned (that would build it), so its sessions are not counted.
      ...(exists ? [`sessions  ${groupDigits(sessions)}`] : []),
      `indexed   ${indexedText(exists, sessions, textIndexed, toolsIndexed)}`,
      `updated   ${disk.modified ? formatAgo(disk.modified) : "never"}`,
    ];
    if (problem) lines.push(`problem   ${problem}`);
    out.text(lines.join("\n") + "\n");
    return 0;
  }

  // Started by a search (src/cli/common/index-later.ts): one at a time, the lock held to the end.
  const lock = io.env[BACKGROUND_ENV] === "1" ? takeIndexerLock(path) : undefined;
  if (io.env[BACKGROUND_ENV] === "1" && !lock) return 0;
  if (values.rebuild) removeIndexFiles(path);
  const started = Date.now();
  const index = openIndex(store.dir, io);
  if (!index) {
    lock?.release();
    throw new CliError("the index could not be opened (see above)", 1);
  }
  try {
    // The summaries brought up to date; those kept are not made (only counted), those read
    // held as their path alone (whether folded into a first snapshot or not: only their
    // count is used), and none held while the text is indexed. No lineage is
    // resolved: the index keeps each summary's own (list --json resolves it afresh), and the
    // scan writes it before resolving; at 50,000 sessions the rows lineage needs held every
    // summary's lineage object alive to the scan's end, the snapshot's making, its peak.
    // A first scan folds each into the snapshot as it reads it (at 50,000 sessions the whole
    // summaries, held until the snapshot was made of them, were its peak).
    index.scans.foldAsRead = true;
    index.scans.collectGarbage = collectGarbage;
    let kept = 0;
    const scans = index.scans;
    // Traced every `every` files read: whether a file costs more as more are held (issue 35's growth).
    const every = traceEvery(io.env);
    let held = 0;
    const hold = (s: SessionSummary) => {
      if (++held % every === 0) tracePhase(`scan ${held}`);
      // scanStore types the rows it holds as summaries; with lineage: false it reads none of their fields.
      return pathOnly(s) as SessionSummary;
    };
    const scan = { probe: false, blocking: true, cache: scans, hold, lineage: false };
    // Counted as scanStore hands them back: besides those read (held), summaries the index's
    // files rows give whole (pi changed a few sessions and a list wrote their rows) pass no hold.
    const read = (await scanStore(store.dir, { onKeptRows: (rows) => (kept = rows.length) }, scan)).sessions.length;
    tracePhase("scanned");
    index.scans.release();
    collectGarbage();
    tracePhase("collected");
    const sessions = kept + read;
    // Most of the FTS rows naming nothing (sessions rewritten or deleted): all the text again.
    dropOrphanText(index.db);
    let last = 0;
    // A progress line was drawn: ended below, even when another run wrote every file it listed.
    let shown = false;
    // Nothing waits for the conversations alone here (the browser indexes them first): a file
    // read whole has its tool texts indexed in the same read. Files are read and parsed on
    // other threads while this one writes them to SQLite (text-readers.ts), unless turned off.
    const readers = readersWanted(io.env) ? TextReaders.start() : undefined;
    const done = await indexStaleText(
      index.db,
      ({ pass, done: n, total }) => {
        if (n % every === 0) tracePhase(`${pass} ${n} of ${total}`);
        const now = Date.now();
        if (!io.isTTY || (now - last < 200 && n < total)) return;
        last = now;
        shown = true;
        out.progress(
          `indexing ${pass === "tools" ? "tool calls and output" : "conversations"}: ${groupDigits(n)} of ${groupDigits(total)} sessions `,
        );
      },
      { toolsAtOnce: true, readers },
    ).finally(() => readers?.close());
    if (shown) out.note("\n");
    tracePhase("text written");
    // The text of many sessions written (a first build): its B-trees, filled in no order
    // (lines by file, files by path), are a tenth larger than packed; VACUUM packs them
    // (~2 s for 300 MB). Not done when another connection is busy with the index.
    if (done.text > 0 && done.text * 4 >= sessions) {
      // Not waited for: a browser writing its scan meanwhile would wait on VACUUM's lock in turn.
      try {
        index.db.sql.exec("PRAGMA busy_timeout = 0");
        index.db.sql.exec("VACUUM");
      } catch {
        // Only space left unpacked.
      } finally {
        index.db.sql.exec("PRAGMA busy_timeout = 3000");
      }
      tracePhase("packed");
    }
    // The write-ahead log folded into the index and emptied: the size said is what stays on
    // disk (a first build's log is a hundred megabytes or more, removed only at close).
    try {
      index.db.sql.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    } catch {
      // Another process reading or writing: its log is folded in later.
    }
    tracePhase("checkpointed");
    const disk = onDisk(path);
    out.note(
      `index of ${groupDigits(sessions)} sessions up to date (${groupDigits(done.text)} new or changed, ${groupDigits(done.tools)} with tool output) in ${((Date.now() - started) / 1000).toFixed(1)} s, ${formatBytes(disk.bytes)}\n`,
    );
    return 0;
  } finally {
    index.close();
    lock?.release();
  }
}

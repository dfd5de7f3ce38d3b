import type { Diagnostic, Lineage, SessionSummary } from "../../model/types.js";
import type { StoreIndex } from "../../index/store-index.js";
import type { BytePieces } from "../../index/snapshot-codec.js";
import { scanStore, type ScanOptions } from "../../scan/scan-store.js";
import { NO_LINEAGE } from "../../store/lineage.js";
import { scanSessionFileSync } from "../../store/scan-file.js";
import { listPieces } from "../../model/summary-json.js";
import type { CliIO } from "./io.js";
import { collectGarbage } from "./collect-garbage.js";
import { discover, pick, reviverOf } from "./scan-columns.js";
import { scanWithIndex } from "./scan-indexed.js";

/** Where a row made of the kept snapshot's columns says its row (a symbol: no key of its JSON). */
const KEPT_ROW = Symbol("kept row");

/** `list --json`'s sessions, and each one's element as the index keeps it (undefined: made from the session). */
export interface JsonRows {
  sessions: SessionSummary[];
  diagnostics: Diagnostic[];
  pieces: (s: SessionSummary) => BytePieces | undefined;
}

/**
 * The store's sessions for `list --json`, each held as `keys` alone where its element's text
 * is kept: the snapshot's sessions still true as rows of its columns (their text out of its
 * list text), those read now folded into a first run's snapshot as they are read (holdFolded),
 * the others whole (a few a pi run changed). At 50,000 sessions, every summary made whole out
 * of the snapshot for a relaunch after pi wrote to one was 400 MB and most of its CPU.
 */
export async function scanJsonRows(
  storeDir: string,
  io: CliIO,
  keys: ReadonlyArray<keyof SessionSummary>,
  /**
   * The index the caller opened (null: none; the caller closes it) and the store it discovered;
   * `jumpy`: the rows are written in another order than the files' (newest first).
   */
  given: { index: StoreIndex | null; found?: ScanOptions["found"]; jumpy?: boolean },
): Promise<JsonRows> {
  const { index } = given;
  if (!index) {
    const r = await scanWithIndex(storeDir, io, given);
    return { sessions: r.sessions, diagnostics: r.diagnostics, pieces: () => undefined };
  }
  const scans = index.scans;
  scans.foldAsRead = true;
  scans.collectGarbage = collectGarbage;
  let kept: number[] | undefined;
  const result = await scanStore(
    storeDir,
    { onKeptRows: (rows) => (kept = rows) },
    {
      probe: false,
      blocking: true,
      cache: scans,
      hold: (s) => scans.holdFolded(s, (x) => pick(x, keys)) as SessionSummary,
      found: given.found ?? (await discover(storeDir, false)),
    },
  );
  const fromRows = (s: SessionSummary) => scans.listPieces(s);
  if (!kept) return { sessions: result.sessions, diagnostics: result.diagnostics, pieces: fromRows };
  const colKeys = keys.filter((k) => k !== "lineage" && k !== "parentSessionPath");
  const cols = scans.keptColumns(colKeys);
  // Another process wrote a snapshot since (or the index failed): the scan as before.
  const fromScan = async (): Promise<JsonRows> => {
    const r = await scanWithIndex(storeDir, io, { index, compact: (s) => pick(s, keys) });
    return { sessions: r.sessions, diagnostics: r.diagnostics, pieces: fromRows };
  };
  if (!cols) return fromScan();
  // The snapshot's columns' bytes are dead now (only the values asked for are held): let go
  // of them before its list text is unzipped (at 50,000 sessions 45 and 48 MB).
  collectGarbage();
  const made = colKeys.map((k) => ({ k, col: cols[k], revive: reviverOf(k) }));
  const lineageOf = new Map<number, Lineage>(result.keptLineage);
  const sessions: SessionSummary[] = [];
  for (const i of kept) {
    const lineage = lineageOf.get(i) ?? NO_LINEAGE;
    if (!scans.keptHasPieces(i)) {
      // No text kept for it: the whole summary, its element made from it.
      const whole = scans.keptSummary(i);
      if (!whole) return fromScan();
      whole.lineage = lineage;
      sessions.push(whole);
      continue;
    }
    const row: Record<string | symbol, unknown> = { [KEPT_ROW]: i, lineage };
    for (const { k, col, revive } of made) {
      const v = revive(col?.[i]);
      if (v !== undefined) row[k] = v;
    }
    sessions.push(row as unknown as SessionSummary);
  }
  for (const s of result.sessions) sessions.push(s);
  // Written in another order than the rows': the list text unzipped whole at once (members
  // unzipped again and again, and their pieces held by what is kept, were more).
  if (given.jumpy) scans.keptPiecesJumpy();
  return {
    sessions,
    diagnostics: result.diagnostics,
    pieces: (s) => {
      const row = (s as { [KEPT_ROW]?: number })[KEPT_ROW];
      if (row === undefined) return fromRows(s);
      // A kept row holds only the sort's and the JSON's keys: its text, or (its list member
      // found damaged only now: keptHasPieces does not unzip them all) made of its whole summary.
      const kept = scans.keptPieces(row);
      if (kept) return kept;
      // Its summary out of the snapshot, or (another process wrote one since: half the
      // answer is out, no throwing now) made of its file, as a changed file's is.
      let whole = scans.keptSummary(row);
      if (!whole) {
        const scan = scanSessionFileSync(s.path);
        if (scan.kind !== "session")
          throw new Error(`index: a kept session's file is unreadable now: ${scan.diagnostic.reason}`);
        whole = { ...scan.summary, lineage: s.lineage };
      }
      const made = listPieces(whole);
      if (!made) throw new Error("index: a kept session's list text is missing");
      return [Buffer.from(made[0]), Buffer.from(made[1])];
    },
  };
}

import { closeSync, constants, fchmodSync, fstatSync, openSync, rmSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { answersDirOf, removeAnswers } from "./answer-files.js";
import { checkFile, checkFolder, createOwnFile, NO_FOLLOW, ownFolder } from "./cache-folder.js";
import { loadSqlite } from "./load-sqlite.js";

/*
 * The persistent index's file: one SQLite database per store (node:sqlite, built into
 * Node 22). It is a cache and nothing but: every row is keyed by a session file's
 * identity (inode, size, mtime, ctime), anything doubtful is dropped and read again from the
 * file, and any failure to open or use it means "no index" for this run, never an error.
 *
 *   files  one row per file of the store: its identity, its summary (or why it is not a
 *          session), and how far its text has been indexed
 *   snapshot  row 1: every file's identity, and how the summaries' columns are laid out; rows
 *          16 on: a summary column each: what a launch reads (a few values and parses cost
 *          a fraction of ten thousand rows);
 *          row 2: each session's `list --json` text (src/index/snapshot-codec.ts)
 *   lines  one row per indexed text of a line: where the line lies in its file
 *   runs   where a file's lines are: each write's line ids, first to last (runs.ts)
 *   chat, tools  contentless FTS5 trigram tables over those texts (lower-cased, accents
 *          folded; the conversation and the tool texts apart, so a search of the
 *          conversation alone never wades through tool output): they name candidate lines, which are then read back from the file and checked
 *          with the same code the index-free search runs, so both give the same results;
 *          a rowid with no row of lines (text forgotten) names nothing
 */

/** Bumped when the tables change: an older index is rebuilt, a newer one left alone. */
export const SCHEMA_VERSION = 8;

/** A row of the files table as the scan saw the file (SCHEMA): what both its summary and its text are checked against. */
export interface FilesRow {
  fid: number;
  path: string;
  ino: number | null;
  size: number | null;
  mtime: number | null;
  ctime: number | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(
  fid INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  ino REAL, size INTEGER, mtime REAL, ctime REAL,
  summary TEXT, diagnostic TEXT,
  text_ino REAL, text_size INTEGER, text_mtime REAL, text_ctime REAL, text_end INTEGER, text_print TEXT,
  text_whole INTEGER NOT NULL DEFAULT 1,
  text_tools INTEGER NOT NULL DEFAULT 0
);
-- AUTOINCREMENT: a line's rid is never given again; its FTS rows outlive it (forget.ts).
CREATE TABLE IF NOT EXISTS lines(
  rid INTEGER PRIMARY KEY AUTOINCREMENT,
  fid INTEGER NOT NULL,
  off INTEGER NOT NULL,
  len INTEGER NOT NULL,
  tool INTEGER NOT NULL
);
-- A file's lines found by its runs of line ids on lines' own b-tree, not by an index on
-- lines(fid): 13 MB at 50,000 sessions, a twentieth of the index (runs.ts).
CREATE TABLE IF NOT EXISTS runs(
  fid INTEGER NOT NULL,
  first INTEGER NOT NULL,
  last INTEGER NOT NULL,
  PRIMARY KEY(fid, first)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshot(id INTEGER PRIMARY KEY, body TEXT NOT NULL);
-- No per-row sizes (columnsize=0, which contentless_delete would need): a tenth of the FTS
-- tables, and of their cost to write. Their rows are not deleted but left behind (forget.ts).
CREATE VIRTUAL TABLE IF NOT EXISTS chat USING fts5(
  t, content='', tokenize='trigram', detail=none, columnsize=0
);
CREATE VIRTUAL TABLE IF NOT EXISTS tools USING fts5(
  t, content='', tokenize='trigram', detail=none, columnsize=0
);
`;

export type OpenResult = { db: IndexDb } | { problem: string };

/** An open index. Methods throw SQLite's errors; callers treat any as "index unusable". */
export class IndexDb {
  private readonly cache = new Map<string, StatementSync>();

  constructor(
    readonly path: string,
    readonly sql: DatabaseSync,
  ) {}

  /** A prepared statement, prepared once. */
  q(text: string): StatementSync {
    let s = this.cache.get(text);
    if (!s) this.cache.set(text, (s = this.sql.prepare(text)));
    return s;
  }

  meta(key: string): string | undefined {
    const row = this.q("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.q("INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(
      key,
      value,
    );
  }

  /**
   * Changes whenever the database may have: another connection committed (SQLite's
   * data_version), or this one changed rows (total_changes). What is read between equal
   * marks is the same.
   */
  changeMark(): string {
    const v = (this.q("PRAGMA data_version").get() as { data_version: number }).data_version;
    const c = (this.q("SELECT total_changes() AS c").get() as { c: number }).c;
    return `${v}/${c}`;
  }

  /** Runs `fn` in one write transaction (rolled back if it throws). */
  transaction<T>(fn: () => T): T {
    this.sql.exec("BEGIN IMMEDIATE");
    try {
      const r = fn();
      this.sql.exec("COMMIT");
      return r;
    } catch (err) {
      if (this.sql.isTransaction) this.sql.exec("ROLLBACK");
      throw err;
    }
  }

  /**
   * Runs `fn`'s reads in one read transaction: what they read is one state of the index (a
   * WAL snapshot), whatever another process commits meanwhile. Inside a transaction already,
   * `fn` runs in that one. None is left open, whether `fn` returns or throws.
   */
  read<T>(fn: () => T): T {
    if (this.sql.isTransaction) return fn();
    this.sql.exec("BEGIN");
    try {
      return fn();
    } finally {
      if (this.sql.isTransaction) {
        try {
          this.sql.exec("COMMIT");
        } catch {
          this.sql.exec("ROLLBACK");
        }
      }
    }
  }

  close(): void {
    try {
      this.sql.close();
    } catch {
      // Already closed.
    }
  }
}

/** SQLite's codes for a file that is not (or no longer) a database. */
function isDamage(err: unknown): boolean {
  const e = err as { errcode?: number; message?: string };
  const primary = (e.errcode ?? -1) & 0xff;
  return (
    primary === 11 /* CORRUPT */ || primary === 26 /* NOTADB */ || /malformed|not a database/i.test(e.message ?? "")
  );
}

/**
 * Deletes the index's files: the database, its -wal and -shm (a link among them: the link
 * itself, never what it points at), and the answers kept beside it (answer files of ours
 * only: answer-files.ts); nothing when its folders are not ours.
 */
function removeIndexFiles(path: string): void {
  // Folders that are not ours (a link among them) hold nothing of ours to delete.
  if (indexFoldersProblem(path, false)) return;
  for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
  removeAnswers(answersDirOf(path));
}

export { answersDirOf };

/**
 * meta's text_gen: a new random value whenever a file's text state may have changed (a row
 * of files added, removed, renumbered, renamed, or its text columns written), by triggers, so whatever
 * process writes (an older build too). A command that kept what the text states said of a
 * store (search's coverage) trusts it while text_gen is the same. Added to an index made
 * before it; without it (read-only) nothing is trusted.
 */
function addTextGeneration(sql: DatabaseSync): void {
  const bump = "BEGIN UPDATE meta SET value = hex(randomblob(8)) WHERE key = 'text_gen'; END;";
  try {
    sql.exec("BEGIN IMMEDIATE");
    sql.exec(`
      CREATE TRIGGER IF NOT EXISTS files_text_ins AFTER INSERT ON files ${bump}
      CREATE TRIGGER IF NOT EXISTS files_text_del AFTER DELETE ON files ${bump}
      CREATE TRIGGER IF NOT EXISTS files_text_upd AFTER UPDATE OF
        fid, path, text_ino, text_size, text_mtime, text_ctime, text_end, text_whole, text_tools ON files ${bump}
      INSERT OR REPLACE INTO meta(key, value) VALUES('text_gen', hex(randomblob(8)));`);
    sql.exec("COMMIT");
  } catch {
    if (sql.isTransaction) sql.exec("ROLLBACK");
  }
}

/**
 * The database's file made ours before SQLite opens it by name: created (mode 0600) where
 * nothing is, not even a link; or checked (a regular file of this user, opened without
 * following a link) and its mode made 0600. It holds the first messages of the user's
 * sessions: theirs alone (SQLite gives its -wal and -shm files the same mode). Throws
 * with the reason when it is not ours.
 */
function ownDatabaseFile(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    const problem = checkFile(file);
    if (problem) throw Object.assign(new Error(problem), { notOurs: true });
  }
  let fd: number;
  try {
    fd = createOwnFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    fd = openSync(path, constants.O_RDONLY | NO_FOLLOW);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw Object.assign(new Error(`${path} is not a file`), { notOurs: true });
    if ((st.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
}

function openOnce(path: string): IndexDb {
  const { DatabaseSync } = loadSqlite();
  ownDatabaseFile(path);
  const sql = new DatabaseSync(path, { timeout: 3000 });
  try {
    // WAL: readers (another browser, a CLI) never wait for the writer, nor it for them.
    sql.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
    const version = () => (sql.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
    if (version() > SCHEMA_VERSION) {
      throw Object.assign(new Error(`written by a newer pi-sessions (format ${version()})`), { newer: true });
    }
    if (version() !== SCHEMA_VERSION) {
      // An older format (or a new file): start again rather than migrate a cache. Under the
      // write lock, asking again: another process may have just made it.
      sql.exec("BEGIN IMMEDIATE");
      try {
        if (version() !== SCHEMA_VERSION) {
          sql.exec(
            "DROP TABLE IF EXISTS text; DROP TABLE IF EXISTS chat; DROP TABLE IF EXISTS tools; DROP TABLE IF EXISTS lines; DROP TABLE IF EXISTS runs; DROP TABLE IF EXISTS files; DROP TABLE IF EXISTS meta; DROP TABLE IF EXISTS snapshot; DROP TABLE IF EXISTS answers;",
          );
          sql.exec(SCHEMA);
          sql.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
        }
        sql.exec("COMMIT");
      } catch (err) {
        if (sql.isTransaction) sql.exec("ROLLBACK");
        throw err;
      }
    }
    // What an index made by an earlier build of this format has, or lacks: one look, at every open.
    const has = new Set(
      (
        sql.prepare("SELECT name FROM sqlite_master WHERE name IN ('answers', 'files_text_upd')").all() as {
          name: string;
        }[]
      ).map((r) => r.name),
    );
    // Where builds of this format kept whole answers before they became files beside the
    // index (src/cli/common/answer-cache.ts): dropped once; a read-only index keeps it.
    if (has.has("answers")) {
      try {
        sql.exec("DROP TABLE answers");
      } catch {
        // Not now: it is only dead weight.
      }
    }
    if (!has.has("files_text_upd")) addTextGeneration(sql);
    // Touch every table once: a truncated or damaged file fails here, not mid-scan.
    sql.prepare("SELECT count(*) FROM files").get();
    sql.prepare("SELECT rid FROM lines ORDER BY rid DESC LIMIT 1").get();
    sql.prepare("SELECT fid FROM runs LIMIT 1").get();
    return new IndexDb(path, sql);
  } catch (err) {
    try {
      sql.close();
    } catch {
      // Nothing to close.
    }
    throw err;
  }
}

/**
 * The folders the index at `path` lives in, made (0700, when `create`) or checked
 * (cache-folder.ts): its folder, and the cache folder above it when that is pi-sessions'
 * own layout (…/pi-sessions/index/store-….sqlite, index-location.ts); its answers folder,
 * if there, checked too. Why one is not ours to use, or undefined.
 */
export function indexFoldersProblem(path: string, create: boolean): string | undefined {
  const dir = dirname(path);
  const layout = basename(dir) === "index";
  const folder = (d: string, tighten: boolean) => (create ? ownFolder(d, tighten) : checkFolder(d));
  // The cache folder made looser by an earlier build (Node's compile cache makes it 0755):
  // pi-sessions' own, made 0700; one named otherwise (PI_SESSIONS_CACHE_DIR) is left as it is.
  const root = dirname(dir);
  return (
    (layout ? folder(root, basename(root) === "pi-sessions") : undefined) ??
    folder(dir, layout) ??
    checkFolder(answersDirOf(path))
  );
}

/**
 * Opens (creating) the index at `path`. A damaged or older index is deleted and built
 * again; a newer, locked, read-only or unopenable one is left as it is and the run goes
 * without ({ problem } says why, in one line).
 */
export function openIndex(path: string): OpenResult {
  const problem = indexFoldersProblem(path, true);
  if (problem) return { problem: `index not used: ${problem}` };
  try {
    return { db: openOnce(path) };
  } catch (err) {
    if ((err as { newer?: boolean; notOurs?: boolean }).newer || (err as { notOurs?: boolean }).notOurs)
      return { problem: `index not used: ${(err as Error).message}` };
    if (!isDamage(err)) return { problem: `index not used: ${oneLine(err)}` };
  }
  try {
    removeIndexFiles(path);
    return { db: openOnce(path) };
  } catch (err) {
    return { problem: `index not used: it was damaged and could not be rebuilt (${oneLine(err)})` };
  }
}

/** An error as one short line (SQLite's messages can be long). */
export function oneLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split("\n")[0].slice(0, 200);
}

export { isDamage as isIndexDamage, removeIndexFiles };

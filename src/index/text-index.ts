import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync } from "node:fs";
import type { SessionEntry } from "../model/types.js";
import { foldAccents } from "../search/fold.js";
import { isToolOutputLine, searchableTexts } from "../search/fulltext.js";
import { fsPath } from "../store/fs-path.js";
import { readLines } from "../store/line-reader.js";
import { readRange } from "../store/read-range.js";
import { forgetText } from "./forget.js";
import type { IndexDb } from "./index-db.js";

/*
 * The text half of the index: every text full-text search looks at (src/search/fulltext.ts,
 * searchableTexts), one FTS row per line and kind, lower-cased and accent-folded as the
 * search folds it. Two kinds, in two passes: the conversation (what the user and the
 * assistant wrote: under 1% of a store's bytes, indexed in seconds) first, for every file;
 * then tool calls and output (the rest; FTS takes minutes per gigabyte of it), newest
 * files first, in the background. A file is indexed once; an append is indexed from where
 * the last run stopped; a file that shrank, was replaced, or whose first bytes changed
 * (rewritten in place) is indexed again whole.
 */

/** Lines longer than this are not indexed: their file is searched by reading it (text_whole = 0). */
export const MAX_INDEXED_LINE = 4 * 1024 * 1024;

/** Bytes hashed to notice a file rewritten in place (same inode, longer). */
const HEAD_BYTES = 4096;

export interface TextRow {
  fid: number;
  path: string;
  ino: number | null;
  size: number | null;
  mtime: number | null;
  text_ino: number | null;
  text_size: number | null;
  text_end: number | null;
  text_head: string | null;
  /** 1 when the tool texts of [0, text_end) are indexed too. */
  text_tools: number;
}

/** Files whose text is current but whose tool texts are not indexed yet. */
export function toolPendingFiles(db: IndexDb): TextRow[] {
  return db
    .q(
      `SELECT fid, path, ino, size, mtime, text_ino, text_size, text_end, text_head, text_tools FROM files
       WHERE summary IS NOT NULL AND text_tools = 0 AND text_size IS size AND text_mtime IS mtime AND text_ino IS ino`,
    )
    .all() as unknown as TextRow[];
}

/** Files whose summary is current but whose text is not (never indexed, or changed since). */
export function staleTextFiles(db: IndexDb): TextRow[] {
  return db
    .q(
      `SELECT fid, path, ino, size, mtime, text_ino, text_size, text_end, text_head, text_tools FROM files
       WHERE summary IS NOT NULL AND (text_size IS NULL OR text_size IS NOT size OR text_mtime IS NOT mtime
         OR text_ino IS NOT ino)`,
    )
    .all() as unknown as TextRow[];
}

/** The file's identity now, and a hash of its first bytes. */
function headHash(path: string): { hash: string; ino: number; size: number; mtimeMs: number } {
  const fd = openSync(fsPath(path), "r");
  try {
    const st = fstatSync(fd);
    const head = readRange(fd, 0, Math.min(HEAD_BYTES, st.size));
    return { hash: createHash("sha1").update(head).digest("hex"), ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** Which texts of a line to index. */
export interface Kinds {
  chat: boolean;
  tools: boolean;
}

/** The texts of a line to index: [folded text, tool?] pairs; none for a line that is not an entry. */
export function lineTexts(line: string, kinds: Kinds = { chat: true, tools: true }): Array<[string, boolean]> {
  let entry: SessionEntry;
  try {
    entry = JSON.parse(line) as SessionEntry;
  } catch {
    return [];
  }
  if (!entry || typeof entry !== "object") return [];
  const chat = searchableTexts(entry, false);
  const out: Array<[string, boolean]> = [];
  const fold = (xs: string[]) => foldAccents(xs.join("\n").toLowerCase());
  if (kinds.chat && chat.length) out.push([fold(chat), false]);
  if (kinds.tools) {
    const all = searchableTexts(entry, true);
    if (all.length > chat.length) out.push([fold(all.slice(chat.length)), true]);
  }
  return out;
}

/** Texts held before they are written (a transaction each): a huge file never sits in memory whole. */
const FLUSH_CHARS = 8 * 1024 * 1024;

/**
 * Indexes one file's text. "new": the conversation (and the tool texts too when the file
 * had them) of what is not indexed yet: all of it, or what was appended since. "tools":
 * the tool texts of the part already indexed. Reads with blocking calls: this runs on the
 * scan worker or in a batch command. Returns false when the file is gone, unreadable, or
 * changed since the scan (its row stays stale, and search reads the file).
 */
export async function indexFileText(db: IndexDb, row: TextRow, pass: "new" | "tools" = "new"): Promise<boolean> {
  let now: ReturnType<typeof headHash>;
  try {
    now = headHash(row.path);
  } catch {
    return false;
  }
  // The summary's row must describe the file as it is now, or the two halves would disagree.
  if (now.ino !== row.ino || now.size !== row.size || now.mtimeMs !== row.mtime) return false;
  const appendOnly =
    row.text_end !== null &&
    row.text_ino === now.ino &&
    row.text_size !== null &&
    now.size >= row.text_size &&
    row.text_head === now.hash;
  if (pass === "tools" && (!appendOnly || now.size !== row.text_size)) return false;
  const start = pass === "new" && appendOnly ? row.text_end! : 0;
  const stop = pass === "tools" ? row.text_end! : now.size;
  const kinds: Kinds =
    pass === "tools" ? { chat: false, tools: true } : { chat: true, tools: appendOnly && row.text_tools === 1 };
  const insertLine = db.q("INSERT INTO lines(fid, off, len, tool) VALUES(?, ?, ?, ?)");
  const insertChat = db.q("INSERT INTO chat(rowid, t) VALUES(?, ?)");
  const insertTools = db.q("INSERT INTO tools(rowid, t) VALUES(?, ?)");
  let end = start;
  let whole = true;
  let rows: Array<[number, number, boolean, string]> = [];
  let chars = 0;
  const write = () => {
    const batch = rows;
    rows = [];
    chars = 0;
    db.transaction(() => {
      for (const [off, len, tool, t] of batch) {
        const rid = insertLine.run(row.fid, off, len, tool ? 1 : 0).lastInsertRowid;
        (tool ? insertTools : insertChat).run(rid, t);
      }
    });
  };
  if (pass === "new" && !appendOnly) db.transaction(() => forgetText(db, row.fid));
  try {
    await readLines(
      row.path,
      (ref) => {
        if (!ref.terminated) {
          // A line still being written: the file is searched by reading it until it is complete.
          whole = false;
          return false;
        }
        end = ref.offset + (ref.oversize ?? ref.end - ref.start) + 1;
        if (ref.oversize !== undefined) return; // never searched, by either path
        if (ref.end - ref.start > MAX_INDEXED_LINE) {
          whole = false;
          return;
        }
        // Tool output holds no conversation: not even decoded for it.
        if (!kinds.tools && isToolOutputLine(ref)) return;
        for (const [t, tool] of lineTexts(ref.buf.toString("utf8", ref.start, ref.end), kinds)) {
          rows.push([ref.offset, ref.end - ref.start, tool, t]);
          chars += t.length;
        }
        if (chars > FLUSH_CHARS) write();
      },
      { sync: true, start, maxBytes: stop - start },
    );
  } catch {
    return false;
  }
  write();
  if (pass === "tools") {
    db.q("UPDATE files SET text_tools = 1 WHERE fid = ?").run(row.fid);
    return true;
  }
  // A last line with no newline is not reported within the limit: not indexed, so this
  // file is searched by reading it (the index-free search does look at such a line).
  if (end < now.size) whole = false;
  db.q(
    `UPDATE files SET text_ino = ?, text_size = ?, text_mtime = ?, text_end = ?, text_head = ?, text_whole = ?,
       text_tools = ? WHERE fid = ?`,
  ).run(now.ino, now.size, now.mtimeMs, end, now.hash, whole ? 1 : 0, kinds.tools ? 1 : 0, row.fid);
  return true;
}

export interface IndexProgress {
  /** "text": the conversation of new and changed files; "tools": tool calls and output. */
  pass: "text" | "tools";
  done: number;
  total: number;
}

/**
 * Brings the index's text up to date: the conversation of every new or changed file,
 * then (unless `tools` is false) the tool texts of every file without them; newest first,
 * reporting progress. Stops at `signal`; a file half done is simply done again next time.
 */
export async function indexStaleText(
  db: IndexDb,
  onProgress?: (p: IndexProgress) => void,
  options: { signal?: AbortSignal; tools?: boolean } = {},
): Promise<{ text: number; tools: number }> {
  const newest = (a: TextRow, b: TextRow) => (b.mtime ?? 0) - (a.mtime ?? 0);
  const stale = staleTextFiles(db).sort(newest);
  let done = 0;
  for (const row of stale) {
    if (options.signal?.aborted) return { text: done, tools: 0 };
    await indexFileText(db, row, "new");
    onProgress?.({ pass: "text", done: ++done, total: stale.length });
  }
  if (options.tools === false) return { text: done, tools: 0 };
  const tools = toolPendingFiles(db).sort(newest);
  let toolsDone = 0;
  for (const row of tools) {
    if (options.signal?.aborted) break;
    await indexFileText(db, row, "tools");
    onProgress?.({ pass: "tools", done: ++toolsDone, total: tools.length });
  }
  return { text: done, tools: toolsDone };
}

import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import { present, type TrashedFile } from "./freedesktop.js";

/** One trashed session, as pi-sessions remembers it for `restore` and undo. */
export interface TrashRecord extends TrashedFile {
  batch: string;
  sessionId?: string;
  title?: string;
  bytes: number;
  /** The session's folder, as its header named it (records of older versions lack it). */
  cwd?: string;
}

/** `$XDG_STATE_HOME/pi-sessions/trash-log.jsonl` (default ~/.local/state/…). */
export function trashLogPath(env: NodeJS.ProcessEnv = process.env): string {
  const state =
    env.XDG_STATE_HOME && env.XDG_STATE_HOME.startsWith("/")
      ? env.XDG_STATE_HOME
      : join(env.HOME || homedir(), ".local", "state");
  return join(state, "pi-sessions", "trash-log.jsonl");
}

/** The trash log cannot be written: nothing is moved (or what was moved is put back). */
export class TrashLogUnavailable extends Error {
  override name = "TrashLogUnavailable";
}

/** The log, opened for appending one record at a time; throws TrashLogUnavailable. */
export interface TrashLog {
  append(record: TrashRecord): void;
  close(): void;
}

const logError = (path: string, err: unknown) => {
  const e = err as NodeJS.ErrnoException;
  const why =
    e.code === "ENOTDIR"
      ? "a file is where its folder should be"
      : e.code === "EACCES" || e.code === "EPERM"
        ? "permission denied"
        : e.code === "ENOSPC"
          ? "the disk is full"
          : (e.message ?? String(err));
  return new TrashLogUnavailable(
    `cannot write the trash log ${path} (${why}${e.code ? `, ${e.code}` : ""}), which undo and restore need`,
  );
};

/** Opens the log before anything is moved, so a log that cannot be written moves nothing. */
export function openTrashLog(env: NodeJS.ProcessEnv = process.env): TrashLog {
  const path = trashLogPath(env);
  let fd: number;
  try {
    mkdirSync(join(path, ".."), { recursive: true });
    fd = openSync(path, "a");
  } catch (err) {
    throw logError(path, err);
  }
  return {
    append(record) {
      try {
        writeSync(fd, JSON.stringify(record) + "\n");
      } catch (err) {
        throw logError(path, err);
      }
    },
    close() {
      closeSync(fd);
    },
  };
}

/** Records whose file is still in the trash, oldest first. */
export function readTrashLog(env: NodeJS.ProcessEnv = process.env): TrashRecord[] {
  const path = trashLogPath(env);
  if (!existsSync(path)) return [];
  const out: TrashRecord[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as TrashRecord;
      // lstat: a symlink session whose target is gone is still in the trash.
      if (typeof r.trashedFile === "string" && typeof r.original === "string" && present(r.trashedFile)) out.push(r);
    } catch {
      // a damaged log line loses one record, never the others
    }
  }
  return out;
}

/** `path` lies in the folder `dir` (a store). */
export function insideFolder(dir: string, path: string): boolean {
  const rel = relative(resolve(dir), resolve(path));
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/**
 * The sessions trashed from the store `dir` that are still in the trash, newest first,
 * each once (a file trashed, restored and trashed again is its latest record). The log is
 * the user's, across stores: another store's sessions are never shown or touched.
 */
export function trashedFromStore(dir: string, env: NodeJS.ProcessEnv = process.env): TrashRecord[] {
  const seen = new Set<string>();
  const out: TrashRecord[] = [];
  for (const r of readTrashLog(env).reverse()) {
    if (seen.has(r.trashedFile) || !insideFolder(dir, r.original)) continue;
    seen.add(r.trashedFile);
    out.push(r);
  }
  return out;
}

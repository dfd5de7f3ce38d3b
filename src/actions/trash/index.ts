import { randomUUID } from "node:crypto";
import { lstatSync, statSync, unlinkSync, type Stats } from "node:fs";
import { fsPath } from "../../store/fs-path.js";
import { readHeaderCwd } from "../../store/header-cwd.js";
import { openTrashLog, type TrashLog, type TrashRecord } from "./log.js";
import { homeTrash, present, restoreFile, trashFile, TrashUnavailable } from "./freedesktop.js";

export { purgeFile, restoreFile, RestoreRefused, TrashUnavailable } from "./freedesktop.js";
export {
  insideFolder,
  readTrashLog,
  trashedFromStore,
  trashLogPath,
  TrashLogUnavailable,
  type TrashRecord,
} from "./log.js";

export interface DeleteTarget {
  path: string;
  sessionId?: string;
  title?: string;
  /** The session's folder (its header's cwd), kept in the log for the trash view; read from the file when absent. */
  cwd?: string;
  /** Size and mtime when the user confirmed: a file that changed since is not touched. */
  bytes?: number;
  mtimeMs?: number;
}

export class DeleteRefused extends Error {
  override name = "DeleteRefused";
}

/** Where the trash is on this system, or undefined when there is none pi-sessions can use. */
export function trashLocation(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (process.platform === "win32") return undefined;
  return homeTrash(env);
}

/**
 * The size and times of what a session path holds, as the list and the user saw them: a
 * symbolic link's target (the link itself is what is trashed or deleted, as the trash
 * spec says, but its own size and times are not the session's). A dangling link is itself.
 */
function contentStat(path: string): Stats {
  const st = lstatSync(fsPath(path));
  if (!st.isSymbolicLink()) return st;
  return statSync(fsPath(path), { throwIfNoEntry: false }) ?? st;
}

function checkUnchanged(t: DeleteTarget): void {
  const st = contentStat(t.path);
  if ((t.bytes !== undefined && st.size !== t.bytes) || (t.mtimeMs !== undefined && st.mtimeMs !== t.mtimeMs)) {
    throw new DeleteRefused(`${t.path} changed since you confirmed (pi may be writing to it); not deleted`);
  }
}

/**
 * Moves sessions to the trash as one batch (for one undo) and logs them for `restore`.
 * Each file is re-checked just before its move and verified gone after. All or nothing
 * per file: the log is opened before anything moves, and a file whose record cannot be
 * written is put back. Stops at the first failure and says which; what was already moved
 * stays recorded.
 */
export function trashSessions(
  targets: DeleteTarget[],
  env: NodeJS.ProcessEnv = process.env,
): { records: TrashRecord[]; failed?: { path: string; error: Error } } {
  const batch = randomUUID();
  const records: TrashRecord[] = [];
  let failed: { path: string; error: Error } | undefined;
  let log: TrashLog | undefined;
  try {
    if (targets.length) log = openTrashLog(env);
  } catch (error) {
    return { records, failed: { path: targets[0].path, error: error as Error } };
  }
  for (const t of targets) {
    try {
      if (trashLocation(env) === undefined) throw new TrashUnavailable("no trash on this system");
      checkUnchanged(t);
      const bytes = contentStat(t.path).size;
      const cwd = t.cwd ?? readHeaderCwd(t.path);
      const moved = trashFile(t.path, env);
      if (present(t.path)) throw new TrashUnavailable(`${t.path} is still there after moving it to the trash`);
      const record = { ...moved, batch, sessionId: t.sessionId, title: t.title, bytes, ...(cwd ? { cwd } : {}) };
      logOrPutBack(log!, record);
      records.push(record);
    } catch (error) {
      failed = { path: t.path, error: error as Error };
      break;
    }
  }
  log?.close();
  return { records, failed };
}

/** Records a moved file; when that fails, moves it back so nothing is trashed unrecorded. */
function logOrPutBack(log: TrashLog, record: TrashRecord): void {
  try {
    log.append(record);
  } catch (error) {
    const e = error as Error;
    try {
      restoreFile(record);
    } catch (undo) {
      e.message += `; it stays in the trash at ${record.trashedFile} (${(undo as Error).message})`;
      throw e;
    }
    e.message += `; ${record.original} was put back, not deleted`;
    throw e;
  }
}

/** Permanent deletion: only ever called after a second, explicit confirmation. */
export function deletePermanently(targets: DeleteTarget[]): string[] {
  const gone: string[] = [];
  for (const t of targets) {
    checkUnchanged(t);
    unlinkSync(fsPath(t.path));
    gone.push(t.path);
  }
  return gone;
}

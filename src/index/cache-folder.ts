import { chmodSync, closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, type Stats } from "node:fs";

/*
 * What the cache folder holds is ours, and nothing else. Each folder of it (the cache
 * folder, index/, an index's answers folder) is made mode 0700, or used only when it is a
 * real folder (not a symbolic link) owned by this user; each file of it is opened without
 * following a symbolic link (O_NOFOLLOW) and used only when it is a regular file of this
 * user. SQLite opens its own files by name: they are looked at (lstat) first, in a folder
 * made and checked so, which no one else can put anything into.
 */

/** O_NOFOLLOW where the system has it (not on Windows, where a link is not followed by open anyway). */
export const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

const uid = typeof process.getuid === "function" ? process.getuid() : undefined;

/** Why `st` (of `what`) is not ours, or undefined. */
function notOurs(st: Stats, what: string, kind: "folder" | "file"): string | undefined {
  if (st.isSymbolicLink()) return `${what} is a symbolic link`;
  if (kind === "folder" ? !st.isDirectory() : !st.isFile()) return `${what} is not a ${kind}`;
  if (uid !== undefined && st.uid !== uid) return `${what} belongs to another user (uid ${st.uid})`;
  return undefined;
}

/**
 * Makes the folder `dir` (its missing parents too, mode 0700), or checks the one there:
 * undefined when it is ours to use, else why not (one line). `tighten`: a folder only
 * pi-sessions makes (index/, the answers), whose mode is made 0700 if it is looser.
 */
export function ownFolder(dir: string, tighten = false): string | undefined {
  let st: Stats;
  try {
    st = lstatSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") return `cannot look at ${dir} (${code(err)})`;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      st = lstatSync(dir);
    } catch (err2) {
      return `cannot create ${dir} (${code(err2)})`;
    }
  }
  const problem = notOurs(st, dir, "folder");
  if (problem) return problem;
  if (tighten && uid !== undefined && (st.mode & 0o077) !== 0) {
    try {
      chmodSync(dir, 0o700);
    } catch {
      // Ours but not changeable (a read-only file system): used as it is.
    }
  }
  return undefined;
}

/** Whether `dir` is a folder of ours as it is (nothing made): undefined when it is, or is not there; else why not. */
export function checkFolder(dir: string): string | undefined {
  let st: Stats;
  try {
    st = lstatSync(dir);
  } catch {
    return undefined;
  }
  return notOurs(st, dir, "folder");
}

/** Whether the file at `path` is ours to open: undefined when it is, or is not there; else why not. */
export function checkFile(path: string): string | undefined {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch {
    return undefined;
  }
  return notOurs(st, path, "file");
}

/**
 * Opens a file of ours for reading, never through a symbolic link: its descriptor, or
 * undefined when it is not there, not a regular file of this user, or not readable.
 */
export function openOwnFile(path: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NO_FOLLOW);
  } catch {
    return undefined;
  }
  try {
    if (notOurs(fstatSync(fd), path, "file") === undefined) return fd;
  } catch {
    // Not ours to tell.
  }
  closeSync(fd);
  return undefined;
}

/** A new file of ours (mode 0600), made where nothing is (not even a link): its descriptor. Throws like openSync. */
export function createOwnFile(path: string): number {
  return openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, 0o600);
}

function code(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err);
}

import {
  closeSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  renameSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, extname, join, relative } from "node:path";
import { decodeName, fsPath } from "../../store/fs-path.js";

/** A file moved to a trash can, with what it takes to put it back. */
export interface TrashedFile {
  original: string;
  trashedFile: string;
  infoFile: string;
  deletedAt: string;
  /** What the moved file is (lstat after the move): restore puts back only that very file. */
  identity?: { ino: number; size: number; mtimeMs: number };
}

/** Whether anything is at `p`, a dangling symlink included (existsSync follows links). */
export function present(p: string): boolean {
  try {
    lstatSync(fsPath(p));
    return true;
  } catch {
    return false;
  }
}

export class TrashUnavailable extends Error {
  override name = "TrashUnavailable";
}

/** `$XDG_DATA_HOME/Trash`, by default `~/.local/share/Trash`. */
export function homeTrash(env: NodeJS.ProcessEnv = process.env): string {
  const data =
    env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith("/")
      ? env.XDG_DATA_HOME
      : join(env.HOME || homedir(), ".local", "share");
  return join(data, "Trash");
}

/** DeletionDate: local time, no zone, as the spec asks. */
export function deletionDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** Percent-encodes each path segment, keeping the slashes. */
// What encodeURIComponent leaves as it is, and the separator.
const PLAIN_BYTE = /[A-Za-z0-9\-_.!~*'()/]/;

/** The spec's Path= value: the path's bytes percent-encoded (a name need not be UTF-8). */
export function encodeTrashPath(p: string): string {
  const raw = fsPath(p);
  let out = "";
  for (const b of Buffer.isBuffer(raw) ? raw : Buffer.from(raw)) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && PLAIN_BYTE.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

export function decodeTrashPath(p: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < p.length; i++) {
    if (p[i] === "%" && /^[0-9a-fA-F]{2}$/.test(p.slice(i + 1, i + 3))) {
      bytes.push(parseInt(p.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(p[i]));
  }
  return decodeName(Buffer.from(bytes));
}

/** The nearest existing folder at or above `p` (the home trash may not exist yet). */
function existingAncestor(p: string): string {
  let cur = p;
  while (!existsSync(cur) && dirname(cur) !== cur) cur = dirname(cur);
  return cur;
}

/** The mount point of `dir`: walk up while the device stays the same. */
export function mountTop(dir: string): string {
  let cur = dir;
  const dev = statSync(cur).dev;
  for (;;) {
    const up = dirname(cur);
    if (up === cur || statSync(up).dev !== dev) return cur;
    cur = up;
  }
}

/**
 * Why a volume's trash folder at `dir` must not be used, or undefined when it is safe (as
 * GLib checks it): it is absent (it will be made 0700), or a real folder, not a symlink,
 * owned by us and closed to others, as are its files/ and info/. Anyone can write a
 * shared volume's top: a folder planted there would receive our session, and could hand
 * back its own file on restore.
 */
export function unsafeTrash(dir: string, uid: number): string | undefined {
  for (const p of [dir, join(dir, "files"), join(dir, "info")]) {
    let st;
    try {
      st = lstatSync(p);
    } catch {
      continue; // not there yet: made 0700 by us
    }
    if (st.isSymbolicLink()) return `${p} is a symbolic link`;
    if (!st.isDirectory()) return `${p} is not a folder`;
    if (st.uid !== uid) return `${p} belongs to another user`;
    if ((st.mode & 0o077) !== 0) return `${p} is open to other users`;
  }
  return undefined;
}

/**
 * The trash can for a file: the home trash when it is on the same device, else the
 * volume's `$topdir/.Trash/$uid` (only if `.Trash` is a real folder with the sticky bit)
 * or `$topdir/.Trash-$uid`, each only if it passes the spec's checks (unsafeTrash).
 * Never a cross-device copy: without a safe trash, TrashUnavailable (a permanent delete
 * may then be offered, behind its own confirmation).
 */
export function trashFor(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
  uid = process.getuid?.() ?? 0,
): { dir: string; topdir?: string } {
  const home = homeTrash(env);
  const fileDev = statSync(fsPath(dirname(file))).dev;
  if (statSync(existingAncestor(home)).dev === fileDev) return { dir: home };
  const topdir = mountTop(dirname(file));
  const shared = join(topdir, ".Trash");
  const problems: string[] = [];
  try {
    const st = lstatSync(shared);
    if (st.isDirectory() && !st.isSymbolicLink() && (st.mode & 0o1000) !== 0) {
      const mine = join(shared, String(uid));
      const why = unsafeTrash(mine, uid);
      if (!why) return { dir: mine, topdir };
      problems.push(why);
    }
  } catch {
    // no shared trash on this volume
  }
  const own = join(topdir, `.Trash-${uid}`);
  const why = unsafeTrash(own, uid);
  if (!why) return { dir: own, topdir };
  problems.push(why);
  throw new TrashUnavailable(`the volume's trash is not safe to use (${problems.join("; ")})`);
}

/**
 * Moves a file to the trash by the freedesktop.org spec: reserve the name by creating
 * `info/<name>.trashinfo` exclusively, then rename into `files/<name>`; undo the info file
 * if the move fails. Throws TrashUnavailable when no trash can take it.
 */
export function trashFile(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
  now = new Date(),
  uid = process.getuid?.() ?? 0,
): TrashedFile {
  let can: { dir: string; topdir?: string };
  try {
    can = trashFor(file, env, uid);
    mkdirSync(join(can.dir, "files"), { recursive: true, mode: 0o700 });
    mkdirSync(join(can.dir, "info"), { recursive: true, mode: 0o700 });
  } catch (err) {
    if (err instanceof TrashUnavailable) throw err;
    throw new TrashUnavailable(`no usable trash for ${file}: ${(err as Error).message}`);
  }
  const deletedAt = deletionDate(now);
  const pathField = encodeTrashPath(can.topdir ? relative(can.topdir, file) : file);
  const ext = extname(file);
  const stem = basename(file, ext);
  for (let n = 1; n < 1000; n++) {
    const name = n === 1 ? `${stem}${ext}` : `${stem}.${n}${ext}`;
    const infoFile = join(can.dir, "info", `${name}.trashinfo`);
    const trashedFile = join(can.dir, "files", name);
    let fd: number;
    try {
      fd = openSync(fsPath(infoFile), "wx", 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw new TrashUnavailable(`cannot write to the trash at ${can.dir}: ${(err as Error).message}`);
    }
    try {
      writeSync(fd, `[Trash Info]\nPath=${pathField}\nDeletionDate=${deletedAt}\n`);
    } finally {
      closeSync(fd);
    }
    if (present(trashedFile)) {
      // rename() would replace it: a stray file without info; pick another name.
      unlinkSync(fsPath(infoFile));
      continue;
    }
    try {
      renameSync(fsPath(file), fsPath(trashedFile));
    } catch (err) {
      unlinkSync(fsPath(infoFile));
      throw new TrashUnavailable(`cannot move ${file} to the trash: ${(err as Error).message}`);
    }
    const st = lstatSync(fsPath(trashedFile));
    return {
      original: file,
      trashedFile,
      infoFile,
      deletedAt,
      identity: { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs },
    };
  }
  throw new TrashUnavailable(`too many files named ${basename(file)} in the trash`);
}

export class RestoreRefused extends Error {
  override name = "RestoreRefused";
}

/**
 * Puts a trashed file back at its exact original path; refuses if something is there now,
 * or if the file in the trash is not the one moved there (another inode, size or mtime:
 * someone replaced it). A symbolic link comes back as the link it was.
 */
export function restoreFile(item: TrashedFile): void {
  if (present(item.original))
    throw new RestoreRefused(
      `${item.original} exists again; not overwriting it (the trashed copy stays in ${item.trashedFile})`,
    );
  checkStillOurs(item, "restoring");
  if (!existsSync(fsPath(dirname(item.original))))
    throw new RestoreRefused(`the folder ${dirname(item.original)} no longer exists`);
  // link + unlink instead of rename: fails rather than overwrite a file created meanwhile.
  // A symlink is put back as a new link with the same target (a hard link to a symlink is
  // not portable), created exclusively too.
  try {
    const st = lstatSync(fsPath(item.trashedFile));
    if (st.isSymbolicLink()) symlinkSync(readlinkSync(fsPath(item.trashedFile)), fsPath(item.original));
    else linkSync(fsPath(item.trashedFile), fsPath(item.original));
  } catch (err) {
    throw new RestoreRefused(`cannot restore ${item.original}: ${(err as Error).message}`);
  }
  unlinkSync(fsPath(item.trashedFile));
  try {
    if (item.infoFile) unlinkSync(fsPath(item.infoFile));
  } catch {
    // the file is back; a stale info file is harmless
  }
}

/** The trashed file is there and is the very file we moved (same inode, size and mtime). */
function checkStillOurs(item: TrashedFile, doing: string): void {
  if (!present(item.trashedFile)) throw new RestoreRefused(`${item.trashedFile} is no longer in the trash`);
  if (item.identity) {
    const st = lstatSync(fsPath(item.trashedFile));
    const was = item.identity;
    if (st.ino !== was.ino || st.size !== was.size || st.mtimeMs !== was.mtimeMs)
      throw new RestoreRefused(
        `${item.trashedFile} is not the file that was moved to the trash (it was replaced); not ${doing} it`,
      );
  }
}

/**
 * Deletes a trashed file for good, and its info file: only the very file we moved there
 * (a file put in its place is refused, as restore refuses it). Called only after a second,
 * explicit confirmation.
 */
export function purgeFile(item: TrashedFile): void {
  checkStillOurs(item, "deleting");
  unlinkSync(fsPath(item.trashedFile));
  try {
    if (item.infoFile) unlinkSync(fsPath(item.infoFile));
  } catch {
    // the file is gone; a stale info file is harmless
  }
}

import { statSync } from "node:fs";
import { fsPath } from "./fs-path.js";

/** What a file was when it was read: enough to notice it was replaced or rewritten since. */
export interface FileIdentity {
  ino: number;
  bytes: number;
  mtimeMs: number;
  /** Its ctime, when known: a rewrite that puts the mtime back still changes it. */
  ctimeMs?: number;
}

/**
 * Whether the file at `path` is still the one read as `was`, as git refuses to write over
 * what it did not read. Session files only grow, so "appended" (same file, longer, the
 * bytes read untouched as far as a file's size and identity can tell) is as good as
 * "same"; "changed" means replaced (another inode), shrunk, or rewritten at the same size
 * (another mtime, or another ctime when it is known: `touch -r` puts the mtime back).
 */
export function checkIdentity(path: string, was: FileIdentity): "same" | "appended" | "changed" | "gone" {
  let st;
  try {
    st = statSync(fsPath(path));
  } catch {
    return "gone";
  }
  if (st.ino !== was.ino || st.size < was.bytes) return "changed";
  if (st.size > was.bytes) return "appended";
  return st.mtimeMs === was.mtimeMs && (was.ctimeMs === undefined || st.ctimeMs === was.ctimeMs) ? "same" : "changed";
}

/**
 * How long after a file's last change a read of it is not sure to be the last word
 * ("racily clean", as git says): a write in the same tick of the file system's clock
 * leaves the same mtime and ctime (and, rewriting as many bytes, the same size). A file
 * system that keeps times to the second (or FAT's two): 2 s; one with finer times (ext4,
 * tmpfs, APFS, NTFS): a few ticks of the kernel's coarse clock (Linux: 1–10 ms; Windows:
 * 15.6 ms).
 */
function racyWindowMs(t: number): number {
  return t % 1000 === 0 ? 2000 : 32;
}

/**
 * Whether what was read of a file whose last change was at `mtimeMs` / `ctimeMs` may be
 * older than the file itself while its identity stays the same: it changed within a tick of
 * `readFrom` (the time, Date.now(), before the read started), or later. Such a read is used
 * but not kept as true of that identity (the next run reads the file again). A write sets
 * both times to the same tick: a file whose mtime was put back (another value than its
 * ctime) cannot be written again unseen.
 */
export function readIsRacy(mtimeMs: number, ctimeMs: number | undefined, readFrom: number): boolean {
  const t = Math.min(mtimeMs, ctimeMs ?? mtimeMs);
  return t > readFrom - racyWindowMs(t);
}

/** The refusal a write from a screen gives when the file is not the one it showed. */
export function identityProblem(path: string, was: FileIdentity | undefined): string | undefined {
  if (!was) return undefined;
  switch (checkIdentity(path, was)) {
    case "changed":
      return "the session file changed since it was read (replaced or rewritten): nothing written; read again";
    case "gone":
      return "the session file is gone: nothing written";
    default:
      return undefined;
  }
}

import { statSync } from "node:fs";
import { fsPath } from "./fs-path.js";

/** What a file was when it was read: enough to notice it was replaced or rewritten since. */
export interface FileIdentity {
  ino: number;
  bytes: number;
  mtimeMs: number;
}

/**
 * Whether the file at `path` is still the one read as `was`, as git refuses to write over
 * what it did not read. Session files only grow, so "appended" (same file, longer, the
 * bytes read untouched as far as a file's size and identity can tell) is as good as
 * "same"; "changed" means replaced (another inode), shrunk, or rewritten at the same size.
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
  return st.mtimeMs === was.mtimeMs ? "same" : "changed";
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

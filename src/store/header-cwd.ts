import { closeSync, openSync, readSync } from "node:fs";
import { fsPath } from "./fs-path.js";

/** Header lines are small; a longer first line is not a header worth waiting for. */
const HEADER_BYTES = 64 * 1024;

/** The session folder (`cwd`) a session file's header names, or undefined when it has no readable header. */
export function readHeaderCwd(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(fsPath(path), "r");
    const buf = Buffer.alloc(HEADER_BYTES);
    const n = readSync(fd, buf, 0, HEADER_BYTES, 0);
    const end = buf.subarray(0, n).indexOf(10);
    if (end < 0) return undefined;
    const h = JSON.parse(buf.subarray(0, end).toString("utf8")) as { type?: unknown; cwd?: unknown };
    return h && h.type === "session" && typeof h.cwd === "string" ? h.cwd : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

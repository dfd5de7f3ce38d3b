import { randomUUID } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, statSync, writeSync } from "node:fs";
import { loadSessionIndex, type SessionIndex } from "../store/session-index.js";
import type { SessionEntry } from "../model/types.js";
import { fsPath } from "../store/fs-path.js";
import { MAX_LINE_BYTES } from "../store/line-reader.js";
import { readRange } from "../store/read-range.js";
import { newTailScan, scanTail } from "./tail-scan.js";

export class AppendRefused extends Error {
  override name = "AppendRefused";
}

/** A fresh 8-hex id not used in the file, as pi's generateId makes them. */
export function freshId(used: { has(id: string): boolean }): string {
  for (let i = 0; i < 100; i++) {
    const id = randomUUID().slice(0, 8);
    if (!used.has(id)) return id;
  }
  return randomUUID();
}

/** Whether a file of `size` bytes ends a line (an empty file does): its last byte only. */
function endsWithNewline(fd: number, size: number): boolean {
  return size === 0 || readRange(fd, size - 1, 1)[0] === 0x0a;
}

const POLL_MS = 5;
/** A last line without its newline, unchanged this long (size and mtime), is taken as torn. */
export const TORN_AFTER_MS = 1000;
/** The longest we wait for another writer to finish its line before refusing. */
export const LINE_WAIT_MAX_MS = 5000;
/** How often the tail is read again because the file grew between reading it and writing. */
const MAX_RETRIES = 50;
/** How often an entry is written again after landing behind another writer's line. */
const MAX_REWRITES = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A last line without its newline is either a write still under way (a line crossing a
 * page boundary shows up in two steps; some writers write a line in pieces and pause
 * between them) or a torn file (a writer that died mid-line). Adding our newline to the
 * first would split another writer's line, so we never guess: we wait for the newline,
 * and take the line as torn only once the file has not changed for TORN_AFTER_MS (by
 * size and by mtime, so a file torn long ago costs no wait). A file still being written
 * without a newline after LINE_WAIT_MAX_MS is refused. Returns the size at which a
 * missing newline was judged torn, or null when the file ends a line.
 */
async function awaitWholeLines(fd: number, path: string): Promise<number | null> {
  const t0 = Date.now();
  let st = fstatSync(fd);
  // When we last saw the file change; before that, its mtime says.
  let since = -Infinity;
  for (;;) {
    if (endsWithNewline(fd, st.size)) return null;
    const now = Date.now();
    if (now - Math.max(since, st.mtimeMs) >= TORN_AFTER_MS) return st.size;
    if (now - t0 >= LINE_WAIT_MAX_MS) {
      throw new AppendRefused(
        `${path}: another program is still writing its last line (no newline after ${LINE_WAIT_MAX_MS / 1000} s); nothing written`,
      );
    }
    await sleep(POLL_MS);
    const next = fstatSync(fd);
    if (next.size !== st.size || next.mtimeMs !== st.mtimeMs) since = Date.now();
    st = next;
  }
}

/**
 * Appends one entry the way pi does: parentId = the last entry in the file at the moment
 * of writing, a fresh id unique in the file, one write of `JSON + "\n"` with O_APPEND,
 * a newline first if the file lacks one (once any write under way has finished). The
 * file's tail is re-read synchronously just
 * before the write; a file that shrank or was replaced is refused, never guessed at.
 * `make` may return null to write nothing (decided against the fresh tail).
 */
export async function appendEntry(
  path: string,
  make: (ctx: {
    index: SessionIndex;
    parentId: string | null;
    id: string;
    timestamp: string;
  }) => Record<string, unknown> | null,
  validate?: (index: SessionIndex) => void,
): Promise<SessionEntry | null> {
  const before = statSync(fsPath(path));
  const index = await loadSessionIndex(path, { skim: true });
  // A file cut short while it was read: what the index holds may not be in it any more.
  if (index.bytes < before.size || index.ino !== before.ino)
    throw new AppendRefused(`${path} shrank or was replaced while it was being read; nothing written`);
  validate?.(index);
  // No O_CREAT: a session deleted meanwhile must not come back as an empty file.
  const fd = openSync(fsPath(path), constants.O_RDWR | constants.O_APPEND);
  try {
    let torn = await awaitWholeLines(fd, path);
    const strays = new Set<string>();
    // What was read of the tail, kept across retries: each reads only what was appended since.
    const scan = newTailScan(index.tailStart, index.leafId, index.endsWithNewline);
    const shrank = (): never => {
      throw new AppendRefused(`${path} shrank while it was being read; nothing written`);
    };
    for (let attempt = 0; ; attempt++) {
      if (attempt > MAX_RETRIES)
        throw new AppendRefused(
          `${path} kept growing while we tried to append (${MAX_RETRIES} tries); nothing written`,
        );
      // From here to the write, nothing yields: the tail read is the file as written to.
      const st = fstatSync(fd);
      if (st.ino !== index.ino)
        throw new AppendRefused(`${path} was replaced while it was being read; nothing written`);
      if (st.size < index.bytes) throw new AppendRefused(`${path} shrank while it was being read; nothing written`);
      const lastLine = index.bytes - index.tailStart;
      if (lastLine > MAX_LINE_BYTES)
        throw new AppendRefused(
          `${path} ends in a line of ${lastLine} bytes without a newline, longer than a line may be; nothing written`,
        );
      const tail = scanTail(fd, scan, st.size, strays, shrank);
      if (!tail.endsWithNewline && st.size !== torn) {
        // Another writer began a line since we looked: wait for it to end (or be torn).
        torn = await awaitWholeLines(fd, path);
        continue;
      }
      if (tail.unreadableLeaf)
        throw new AppendRefused(
          `${path}: its last entry may be a line too long to read, so the parent cannot be known; nothing written`,
        );
      const used = { has: (id: string) => index.byId.has(id) || tail.ids.has(id) };
      const v1 = index.version < 2;
      const entry = make({
        index,
        // v1 entries carry no ids on disk; pi re-chains them all when it opens the file.
        parentId: v1 ? null : tail.leafId,
        id: freshId(used),
        timestamp: new Date().toISOString(),
      }) as SessionEntry | null;
      if (entry === null) return null;
      const line = `${tail.endsWithNewline ? "" : "\n"}${JSON.stringify(entry)}\n`;
      // Verify, then write at once: a line appended since the tail was read would make our
      // parent the line before the last. Then read the tail again (bounded, then refuse).
      if (fstatSync(fd).size !== st.size) continue;
      const bytes = Buffer.from(line);
      writeSync(fd, bytes);
      if (readRange(fd, st.size, bytes.length).equals(bytes)) return entry;
      // Another writer's line went in between our check and our write (O_APPEND put ours
      // after it): ours is parented on the line before the last. It cannot be taken back,
      // so when it was meant to follow the last entry it is written again, parented right;
      // pi takes the last entry as the session's position, and the stray copy (the same
      // label or name) stays on a side branch.
      if (entry.parentId !== tail.leafId) return entry;
      if (strays.size >= MAX_REWRITES)
        throw new AppendRefused(
          `${path}: another program kept writing at the same moment; ${strays.size + 1} copies of the entry were written, the last parented on the wrong line`,
        );
      strays.add(entry.id);
    }
  } finally {
    closeSync(fd);
  }
}

import { randomUUID } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, writeSync } from "node:fs";
import { loadSessionIndex, type SessionIndex } from "../model/session-index.js";
import type { SessionEntry } from "../model/types.js";
import { readRange } from "../store/read-range.js";

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

interface Tail {
  leafId: string | null;
  ids: Set<string>;
  endsWithNewline: boolean;
}

/** Parses what was appended after the index was read (by pi, say), synchronously. */
function readTail(fd: number, index: SessionIndex, size: number): Tail {
  const ids = new Set<string>();
  let leafId = index.leafId;
  const len = size - index.tailStart;
  if (len <= 0) return { leafId, ids, endsWithNewline: index.endsWithNewline || size === 0 };
  const buf = readRange(fd, index.tailStart, len);
  const got = buf.length;
  const text = buf.toString("utf8");
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as Partial<SessionEntry>;
      if (e && typeof e === "object" && e.type !== "session" && typeof e.id === "string") {
        ids.add(e.id);
        leafId = e.id;
      }
    } catch {
      // A half-written line: pi skips it too.
    }
  }
  return { leafId, ids, endsWithNewline: got > 0 && buf[got - 1] === 0x0a };
}

const SETTLE_STEP_MS = 5;
const SETTLE_MAX_MS = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A last line without its newline may be a write still under way, not a torn file: a
 * line that crosses a page boundary becomes visible in two steps, and some writers
 * write a line in pieces. Adding our newline then would leave an empty line, or split
 * theirs. So wait while the file keeps growing, until it ends a line or has stood still
 * for three looks (up to 200 ms); only then is a missing newline taken as real.
 */
async function awaitWholeLines(fd: number): Promise<void> {
  let size = fstatSync(fd).size;
  if (endsWithNewline(fd, size)) return;
  let still = 0;
  for (let waited = 0; waited < SETTLE_MAX_MS && still < 3; waited += SETTLE_STEP_MS) {
    await sleep(SETTLE_STEP_MS);
    const now = fstatSync(fd).size;
    if (now === size) {
      still++;
      continue;
    }
    size = now;
    still = 0;
    if (endsWithNewline(fd, size)) return;
  }
}

/** Whether a file of `size` bytes ends a line (an empty file does): its last byte only. */
function endsWithNewline(fd: number, size: number): boolean {
  return size === 0 || readRange(fd, size - 1, 1)[0] === 0x0a;
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
  make: (ctx: { index: SessionIndex; parentId: string | null; id: string; timestamp: string }) => Record<string, unknown> | null,
  validate?: (index: SessionIndex) => void,
): Promise<SessionEntry | null> {
  const index = await loadSessionIndex(path, { skim: true });
  validate?.(index);
  // No O_CREAT: a session deleted meanwhile must not come back as an empty file.
  const fd = openSync(path, constants.O_RDWR | constants.O_APPEND);
  try {
    await awaitWholeLines(fd);
    // From here to the write, nothing yields: the tail read is the file as written to.
    const st = fstatSync(fd);
    if (st.ino !== index.ino) throw new AppendRefused(`${path} was replaced while it was being read; nothing written`);
    if (st.size < index.bytes) throw new AppendRefused(`${path} shrank while it was being read; nothing written`);
    const tail = readTail(fd, index, st.size);
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
    writeSync(fd, line);
    return entry;
  } finally {
    closeSync(fd);
  }
}

// Worker thread entry of a text reader (text-readers.ts): reads, parses and folds the files
// `pi-sessions index` hands it, and posts back their rows, while the main thread writes the
// rows before them to SQLite. It never opens the database.
import { parentPort } from "node:worker_threads";
import { readFileText } from "./text-index.js";
import { RowPacker, type TextRows } from "./text-rows.js";
import type { TextGroupReply, TextJob, TextReply, TextToReader } from "./text-readers.js";

/** A group's buffer to start from when none was handed back (it grows as a group needs). */
const FIRST_BUFFER = 1024 * 1024;
/** Buffers handed back kept for the next groups, at most (more are let go). */
const POOL = 8;
/**
 * Nor one grown past this: a group of large texts (up to 1 MiB a file) grows its buffer to
 * several MB, kept for the run it would be 30-40 MB more on sessions of ~1 MB.
 */
const POOLED_BYTES = 2 * FIRST_BUFFER;
const pool: ArrayBuffer[] = [];

/**
 * Files one after the other, never at once (nor two groups' files): they share `scratch` and
 * the group's packer, so a read that awaited midway would let the next overwrite its bytes, and
 * index rows silently wrong. readFileText does not await on the whole-file path today; this
 * does not rely on it.
 */
const port = parentPort;
if (port) {
  let queue = Promise.resolve();
  port.on("message", (message: TextToReader) => {
    if ("give" in message) {
      if (pool.length < POOL && message.give.byteLength <= POOLED_BYTES) pool.push(message.give);
      return;
    }
    const { id, jobs } = message;
    queue = queue.then(async () => {
      const given = pool.pop();
      const packer = new RowPacker(given ? Buffer.from(given) : Buffer.allocUnsafeSlow(FIRST_BUFFER));
      const replies: TextReply[] = [];
      for (const job of jobs) replies.push(await readOne(job, packer));
      // The rows' bytes move to the writing thread (transferred, not copied), and come back
      // to `pool` once written.
      const buffer = packer.buf.buffer as ArrayBuffer;
      port.postMessage(
        { id, replies, buffer, fromPool: given !== undefined && buffer === given } satisfies TextGroupReply,
        [buffer],
      );
    });
  });
}

/**
 * Every file is read into this one buffer: a buffer per file (malloc'd on this thread, freed
 * when V8 collected it) is suspected of holding the reader's memory up; its files are read
 * one after the other, each done with before the next.
 */
const scratch = { buf: Buffer.allocUnsafeSlow(64 * 1024) };

/** One file's text as the writing thread will write it (false: it reads the file itself), its rows packed by `packer`. */
async function readOne(job: TextJob, packer: RowPacker): Promise<TextReply> {
  let forget = false;
  const at = packer.pos;
  let count = 0;
  let chars = 0;
  const sink = {
    start: (f: boolean) => (forget = f),
    // Packed as they come (one call per file here: readFileText flushes past FLUSH_CHARS only,
    // more than `oneRead` bytes give), so that the strings die young on this thread.
    rows: (r: TextRows) => {
      packer.add(r);
      count += r.texts.length;
      chars += r.chars;
    },
  };
  try {
    const text = await readFileText(job.row, job.pass, job.toolsAtOnce, job.oneRead, sink, true, scratch);
    if (text === false || text === "big") packer.pos = at;
    return { text, forget, rows: { at, count, chars } };
  } catch {
    packer.pos = at;
    return { text: false, forget, rows: { at, count: 0, chars: 0 } };
  }
}

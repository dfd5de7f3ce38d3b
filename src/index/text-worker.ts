// Worker thread entry of a text reader (text-readers.ts): reads, parses and folds the files
// `pi-sessions index` hands it, and posts back their rows, while the main thread writes the
// rows before them to SQLite. It never opens the database.
import { parentPort } from "node:worker_threads";
import { readFileText } from "./text-index.js";
import { noRows, type TextRows } from "./text-rows.js";
import type { TextGroup, TextGroupReply, TextJob, TextReply } from "./text-readers.js";

/**
 * Files one after the other, never at once (nor two groups' files): they share `scratch`, so
 * a read that awaited midway would let the next overwrite its bytes, and index rows silently
 * wrong. readFileText does not await on the whole-file path today; this does not rely on it.
 */
const port = parentPort;
if (port) {
  let queue = Promise.resolve();
  port.on("message", ({ id, jobs }: TextGroup) => {
    queue = queue.then(async () => {
      const replies: TextReply[] = [];
      for (const job of jobs) replies.push(await readOne(job));
      port.postMessage({ id, replies } satisfies TextGroupReply);
    });
  });
}

/**
 * Every file is read into this one buffer: a buffer per file (malloc'd on this thread, freed
 * when V8 collected it) is suspected of holding the reader's memory up; its files are read
 * one after the other, each done with before the next.
 */
const scratch = { buf: Buffer.allocUnsafeSlow(64 * 1024) };

/** One file's text as the writing thread will write it (false: it reads the file itself). */
async function readOne(job: TextJob): Promise<TextReply> {
  let forget = false;
  let rows = noRows();
  const sink = {
    start: (f: boolean) => (forget = f),
    // One call per file here: readFileText flushes past FLUSH_CHARS only, more than `oneRead` bytes give.
    rows: (r: TextRows) => {
      if (rows.texts.length === 0) rows = r;
      else {
        rows.offs.push(...r.offs);
        rows.lens.push(...r.lens);
        rows.tools.push(...r.tools);
        rows.texts.push(...r.texts);
        rows.chars += r.chars;
      }
    },
  };
  try {
    const text = await readFileText(job.row, job.pass, job.toolsAtOnce, job.oneRead, sink, true, scratch);
    return { text, forget, rows };
  } catch {
    return { text: false, forget, rows };
  }
}

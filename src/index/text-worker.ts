// Worker thread entry of a text reader (text-readers.ts): reads, parses and folds the files
// `pi-sessions index` hands it, and posts back their rows, while the main thread writes the
// rows before them to SQLite. It never opens the database.
import { parentPort } from "node:worker_threads";
import { readFileText } from "./text-index.js";
import { noRows, type TextRows } from "./text-rows.js";
import type { TextGroup, TextGroupReply, TextJob, TextReply } from "./text-readers.js";

const port = parentPort;
if (port) {
  port.on("message", ({ id, jobs }: TextGroup) => {
    void Promise.all(jobs.map(readOne)).then((replies) => port.postMessage({ id, replies } satisfies TextGroupReply));
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

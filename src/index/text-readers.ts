import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { FileText, PackedRows, TextRow } from "./text-rows.js";

/*
 * Text readers: worker threads that read, parse and fold the files a run of indexing is
 * about to write (text-worker.ts), so that the thread writing to SQLite (FTS5's work, about
 * half of a first build's CPU) does only that. The wall time of a build then approaches the
 * larger of the two rather than their sum. Only files read in one read (ONE_READ_BYTES) go
 * to a reader; a larger one is read by the writing thread as before, in parts.
 */

/** The built worker beside this module (absent when running from TypeScript sources). */
export const TEXT_WORKER_URL = new URL("./text-worker.js", import.meta.url);

/**
 * Files read ahead of the one being written, at most: what waits is bounded by these. The
 * bytes bound the rows' packed bytes too (a file's rows take fewer than its lines); 4 MB, not
 * 16: on sessions of ~430 KB the peak RSS fell with it (16 MB: 200-210 MB, 4 MB: 163-175 MB,
 * the writing thread reading alone 140-148 MB) and the reader still keeps ahead of the writer.
 */
export const AHEAD_FILES = 64;
export const AHEAD_BYTES = 4 * 1024 * 1024;
/**
 * Files sent to a reader in one message, and answered in one: a message per file (10,000
 * of them) cost the writing thread 2.6 s of its 23 in postMessage, waking the reader each time.
 */
export const GROUP_FILES = 16;

/** What a reader is asked for one file. */
export interface TextJob {
  row: TextRow;
  pass: "new" | "tools";
  toolsAtOnce: boolean;
  oneRead: number;
}

/** What a reader read of one file. */
export interface TextReply {
  /** false or "big": the writing thread reads that file itself. */
  text: FileText | false | "big";
  forget: boolean;
  /** Its rows in the group's buffer (TextGroupReply.buffer). */
  rows: PackedRows;
}

/** A message to a reader and its answer: files in order. */
export interface TextGroup {
  id: number;
  jobs: TextJob[];
}
export interface TextGroupReply {
  id: number;
  replies: TextReply[];
  /** The group's rows packed (RowPacker), transferred: handed back to the reader once written. */
  buffer: ArrayBuffer;
  /** Whether `buffer` is one handed back (a pool's), rather than allocated for this group. */
  fromPool: boolean;
}
/** What a reader is sent: a group to read, or a buffer of rows written, to pack others into. */
export type TextToReader = TextGroup | { give: ArrayBuffer };

/** A reader's read of one file as the writing thread takes it: `release` once its rows are written. */
export interface TextRead {
  reply: TextReply;
  buf: Buffer;
  release(): void;
}

/**
 * Readers worth starting on a machine of `parallelism` cores: one per core but the writing
 * thread's (none on one core), and no more than the groups read ahead at once (AHEAD_FILES /
 * GROUP_FILES): another would wait idle, its heap (~9 MB) for nothing.
 */
export function readerCount(parallelism = availableParallelism()): number {
  return Math.max(0, Math.min(parallelism - 1, AHEAD_FILES / GROUP_FILES));
}

/**
 * A pass of fewer files than this is read by the writing thread alone: a reader takes longer
 * to start (its isolate, the code it loads) than a few files take to read, and a run with
 * nothing to do (the one a search starts in the background) starts none.
 */
export const READERS_FROM_FILES = 64;

/**
 * Text readers are on unless PI_SESSIONS_TEXT_READERS=0 (the writing thread then reads every
 * file, as before them). They were off by default at first, their memory up to twice the
 * writing thread's alone (~430 KB sessions: 276 against 147 MB, rows structured-cloned); with
 * the rows packed and transferred and a small reader heap (old generation 48 MB), 165-168 against
 * 142-153 MB there, 168-170 against 150 MB on 10,000 sessions of ~22 KB, and up to a third off
 * `index`'s wall time at 50,000 (docs/performance.md).
 */
export function readersWanted(env: NodeJS.ProcessEnv): boolean {
  return env.PI_SESSIONS_TEXT_READERS !== "0";
}

/** A pool of text readers (readerCount), started when first asked to read. */
export class TextReaders {
  private readonly workers: Worker[] = [];
  /** Groups sent and not answered yet: who answers, and to whom (its reader, to fail it alone). */
  private readonly waiting = new Map<number, { worker: Worker; done: (reads: TextRead[] | undefined) => void }>();
  private nextId = 0;
  private closed = false;
  /** Readers started in place of ones that failed: as many in all as the pool's size (not one per slot), so a store that kills them all ends with none. */
  private respawns: number;
  /** Groups whose rows came in a buffer handed back before, rather than a new one. */
  reused = 0;
  /** Files whose rows the writing thread wrote as a reader read them (not read again there). */
  written = 0;

  private constructor(
    private readonly url: URL,
    private readonly count: number,
    /** The fewest files of a pass worth reading on readers (READERS_FROM_FILES). */
    readonly fromFiles: number,
  ) {
    this.respawns = count;
  }

  /** How many readers are running (none until the first read). */
  get started(): number {
    return this.workers.length;
  }

  /** Whether no reader is left (every one failed, or closed): the writing thread reads every file. */
  private get broken(): boolean {
    return this.closed || (this.workers.length === 0 && this.nextId > 0);
  }

  private spawnOne(): void {
    // A small heap: what a reader holds is one file's lines at a time (its rows leave packed),
    // and a larger one let dead parses pile up. Young generation 2 MB. Old 48 MB: the worst
    // file a reader is given, one line of ONE_READ_BYTES parsing into the most objects, needs
    // 33-36 MB (512k arrays nested, "[[[...]]]"; 350k empty objects, "[{},{},...]", 29-32 MB);
    // 16 MB was killed by 600 KB of "[{},{},...]" in a real session. Young 8 MB, old uncapped,
    // then 8 and 24 MB, then 2 and 16 MB: on 10,000 sessions of ~22 KB peak RSS 171, ~167, 156
    // MB (the writing thread alone 151 MB). A reader that fails anyway hands its files back.
    const worker = new Worker(this.url, {
      resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 48 },
    });
    worker.on("message", (reply: TextGroupReply) => {
      const sent = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      sent?.done(this.reads(worker, reply));
    });
    // A reader that fails leaves its own groups to the writing thread (the answer is the same)
    // and is replaced while the pool's replacements last (respawns); the other readers go on.
    const fail = () => {
      const at = this.workers.indexOf(worker);
      if (at < 0) return;
      this.workers.splice(at, 1);
      for (const [id, sent] of this.waiting)
        if (sent.worker === worker) {
          this.waiting.delete(id);
          sent.done(undefined);
        }
      if (!this.closed && this.respawns > 0) {
        this.respawns--;
        try {
          this.spawnOne();
        } catch {
          // None in its place: the others go on, or the writing thread alone.
        }
      }
    };
    worker.on("error", fail);
    worker.on("exit", fail);
    this.workers.push(worker);
  }

  /**
   * Readers from the built worker at `url`; undefined when there is none (running from
   * sources) or no core to spare. Nothing starts until a pass of `fromFiles` files or more reads.
   */
  static start(
    url: URL = TEXT_WORKER_URL,
    count = readerCount(),
    fromFiles = READERS_FROM_FILES,
  ): TextReaders | undefined {
    if (count < 1 || url.protocol !== "file:" || !existsSync(fileURLToPath(url))) return undefined;
    return new TextReaders(url, count, fromFiles);
  }

  /**
   * A group's reads, sharing its buffer: once every one is released (its rows written, or
   * not used), the buffer goes back to its reader, to pack the next groups' rows into, rather
   * than each group's bytes allocated on one thread and freed on the other.
   */
  private reads(worker: Worker, { replies, buffer, fromPool }: TextGroupReply): TextRead[] {
    if (fromPool) this.reused++;
    const buf = Buffer.from(buffer);
    let left = replies.length;
    const giveBack = () => {
      if (--left === 0 && !this.closed && this.workers.includes(worker))
        worker.postMessage({ give: buffer } satisfies TextToReader, [buffer]);
    };
    return replies.map((reply) => {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        giveBack();
      };
      return { reply, buf, release };
    });
  }

  /** The files' texts read by a reader, in order (undefined: not read there; the caller reads them). */
  read(jobs: TextJob[]): Promise<TextRead[] | undefined> {
    if (this.broken) return Promise.resolve(undefined);
    if (this.nextId === 0) {
      try {
        for (let i = 0; i < this.count; i++) this.spawnOne();
      } catch {
        // Those started read; none started: the writing thread reads every file.
      }
    }
    const id = this.nextId++;
    const worker = this.workers[id % Math.max(1, this.workers.length)];
    if (!worker) return Promise.resolve(undefined);
    return new Promise((done) => {
      this.waiting.set(id, { worker, done });
      worker.postMessage({ id, jobs } satisfies TextToReader);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const { done } of this.waiting.values()) done(undefined);
    this.waiting.clear();
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** Whether two reads of a file's row say the same (a file read ahead from a row since changed is read again). */
function sameRow(a: TextRow, b: TextRow): boolean {
  for (const key of Object.keys(a) as Array<keyof TextRow>) if (a[key] !== b[key]) return false;
  return Object.keys(a).length === Object.keys(b).length;
}

/**
 * The files of a pass sent to the readers ahead of their turn, in the pass's order, up to
 * AHEAD_FILES and AHEAD_BYTES ahead of the one being written.
 */
export class ReadAhead {
  private next = 0;
  private bytes = 0;
  private readonly held = new Map<number, { row: TextRow; read: Promise<TextRead | undefined>; answered: boolean }>();

  constructor(
    readonly readers: TextReaders,
    private readonly fids: number[],
    /** The file's row now, if the pass still has to index it. */
    private readonly rowOf: (fid: number) => TextRow | undefined,
    private readonly job: Omit<TextJob, "row">,
  ) {}

  /**
   * What to wait for before file `fid`'s turn: its read, while a reader has not answered it
   * (more are sent ahead first); undefined once answered, or when none was sent.
   */
  pending(fid: number): Promise<unknown> | undefined {
    this.fill();
    const ahead = this.held.get(fid);
    return ahead && !ahead.answered ? ahead.read : undefined;
  }

  /**
   * The reader's read of file `fid` if it was made from this same `row` (more are sent ahead
   * first); the caller releases it once written. Called for every file of the pass in order,
   * `row` undefined for one it skips.
   */
  async take(fid: number, row: TextRow | undefined): Promise<TextRead | undefined> {
    this.fill();
    const ahead = this.held.get(fid);
    if (!ahead) return undefined;
    this.held.delete(fid);
    this.bytes -= ahead.row.size ?? 0;
    const read = await ahead.read;
    if (read && row && sameRow(ahead.row, row)) return read;
    read?.release();
    return undefined;
  }

  /** Sends files ahead in groups, once a whole group fits within the bounds (or nothing is held). */
  private fill(): void {
    while (this.next < this.fids.length && (this.held.size === 0 || this.held.size + GROUP_FILES <= AHEAD_FILES)) {
      const group: TextRow[] = [];
      let bytes = 0;
      while (this.next < this.fids.length && group.length < GROUP_FILES && this.bytes + bytes < AHEAD_BYTES) {
        const row = this.rowOf(this.fids[this.next++]!);
        // A large file is read by the writing thread in parts (the readers hand over whole files).
        if (!row || (row.size ?? Infinity) > this.job.oneRead) continue;
        group.push(row);
        bytes += row.size ?? 0;
      }
      if (group.length === 0) {
        if (this.bytes + bytes >= AHEAD_BYTES) return;
        continue;
      }
      this.bytes += bytes;
      const reads = this.readers.read(group.map((row) => ({ ...this.job, row })));
      group.forEach((row, i) => {
        const ahead = { row, read: reads.then((r) => r?.[i]), answered: false };
        void reads.then(() => (ahead.answered = true));
        this.held.set(row.fid, ahead);
      });
      if (this.bytes >= AHEAD_BYTES) return;
    }
  }
}

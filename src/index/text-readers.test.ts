import { appendFileSync, copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE, REPO, settle } from "../../test/helpers/tmp-store.js";
import { scanStore } from "../scan/scan-store.js";
import { openStoreIndex, type StoreIndex } from "./store-index.js";
import type { IndexDb } from "./index-db.js";
import {
  filesToDo,
  indexStaleText,
  ONE_READ_BYTES,
  readFileText,
  staleTextFiles,
  type IndexProgress,
} from "./text-index.js";
import { unpackRows } from "../../test/helpers/packed-rows.js";
import { noRows, RowPacker, type TextRow, type TextRows } from "./text-rows.js";
import { planWithIndex } from "./index-search.js";
import { parseQuery } from "../search/query.js";
import {
  AHEAD_BYTES,
  AHEAD_FILES,
  GROUP_FILES,
  ReadAhead,
  READERS_FROM_FILES,
  readerCount,
  TextReaders,
  type TextJob,
  type TextRead,
  type TextReply,
} from "./text-readers.js";

afterEach(() => cleanupTmp());

/** The readers' worker as `npm run build` makes it (dist/src): tests run from sources, where there is none. */
const BUILT_WORKER = pathToFileURL(join(REPO, "dist", "src", "index", "text-worker.js"));

/**
 * A copy of the pi fixture store with its summaries in a fresh index, no text indexed yet;
 * each session `copies` more times besides (more files than a few groups).
 */
async function summarized(copies = 0): Promise<{ index: StoreIndex; store: string }> {
  const store = copyStore(PI_STORE);
  for (const file of someSessions(store, Infinity))
    for (let i = 1; i <= copies; i++) copyFileSync(file, file.replace(/\.jsonl$/, `-${i}.jsonl`));
  settle(store);
  const index = openStoreIndex(store, (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
  await scanStore(store, {}, { cache: index.scans });
  return { index, store };
}

/**
 * Everything the text index holds, paths relative to the store: lines, text states, and each
 * FTS term's rows named by their line (two copies of a store number their files, so their
 * lines, in an order of their own: newest first, equal dates by file id).
 */
function held({ index, store }: { index: StoreIndex; store: string }) {
  const db = index.db;
  const rel = (r: Record<string, unknown>) => JSON.stringify({ ...r, path: String(r.path).slice(store.length) });
  const line = "f.path AS path, l.off AS off, l.len AS len, l.tool AS tool";
  const ftsRows = (t: string) => {
    db.sql.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab_${t} USING fts5vocab(main, ${t}, instance)`);
    return db
      .q(`SELECT v.term AS term, ${line} FROM temp.vocab_${t} v JOIN lines l ON l.rid = v.doc JOIN files f USING (fid)`)
      .all()
      .map(rel)
      .sort();
  };
  return {
    lines: db.q(`SELECT ${line} FROM lines l JOIN files f USING (fid)`).all().map(rel).sort(),
    states: db
      .q("SELECT path, text_end, text_print, text_whole, text_tools, text_size FROM files")
      .all()
      .map(rel)
      .sort(),
    chat: ftsRows("chat"),
    tools: ftsRows("tools"),
  };
}

type StaleOptions = { toolsAtOnce?: boolean; oneRead?: number };

/**
 * indexStaleText on this thread alone, stopped once the conversations are written to see the
 * tools pass's list, then finished; with `small`, how many files of both passes' lists a
 * reader would read (those up to `oneRead` bytes).
 */
async function oneThread(db: IndexDb, options: StaleOptions) {
  const oneRead = options.oneRead ?? ONE_READ_BYTES;
  let small = smallFiles(db, filesToDo(db, "new"), oneRead);
  const stop = new AbortController();
  const end = (p: IndexProgress) => p.pass === "text" && p.done === p.total && stop.abort();
  const first = await indexStaleText(db, end, { ...options, signal: stop.signal });
  small += smallFiles(db, filesToDo(db, "tools"), oneRead);
  const rest = await indexStaleText(db, undefined, options);
  return { written: { text: first.text + rest.text, tools: first.tools + rest.tools }, small };
}

/** How many of files `fids` are up to `oneRead` bytes (the ones a reader reads). */
function smallFiles(db: IndexDb, fids: number[], oneRead: number): number {
  const size = db.q("SELECT size FROM files WHERE fid = ?");
  return fids.filter((fid) => ((size.get(fid) as { size: number }).size ?? Infinity) <= oneRead).length;
}

/** A file's row as the readers' tests make it up (never read: the readers are fakes). */
function fakeRow(fid: number, size: number): TextRow {
  return {
    fid,
    path: `/s/${fid}.jsonl`,
    ino: fid,
    size,
    mtime: 1,
    ctime: 1,
    text_ino: null,
    text_size: null,
    text_end: null,
    text_print: null,
    text_tools: 0,
    text_whole: 1,
  };
}

/** What a fake reader answers for a file: no rows. */
const fakeReply = (): TextReply => ({ text: { kinds: "chat" }, forget: false, rows: { at: 0, count: 0, chars: 0 } });
const fakeRead = (release: () => void): TextRead => ({ reply: fakeReply(), buf: Buffer.alloc(0), release });

/** A file's rows as readFileText reads them on this thread. */
async function rowsHere(job: TextJob): Promise<TextRows> {
  const rows = noRows();
  const sink = {
    start: () => {},
    rows: (r: TextRows) => {
      rows.offs.push(...r.offs);
      rows.lens.push(...r.lens);
      rows.tools.push(...r.tools);
      rows.texts.push(...r.texts);
      rows.chars += r.chars;
    },
  };
  await readFileText(job.row, job.pass, job.toolsAtOnce, job.oneRead, sink, true);
  return rows;
}

/** A reader's read of a file, unpacked. */
const unpacked = ({ reply, buf }: TextRead): TextRows => unpackRows(buf, reply.rows);

/** A session of one message saying `content`, with `details` (JSON) beside it. */
function oneLineSession(content: string, details = "null"): string {
  const text =
    '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}\n' +
    '{"type":"message","id":"m","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":' +
    JSON.stringify(content) +
    ',"timestamp":1},"details":' +
    details +
    "}\n";
  return text;
}

/** A reader's job for the session written at `path` (its row as the scan would make it). */
function sessionJob(path: string, fid: number, text?: string): TextJob {
  if (text !== undefined) writeFileSync(path, text);
  const st = statSync(path);
  const row = { ...fakeRow(fid, st.size), path, ino: st.ino, mtime: st.mtimeMs, ctime: st.ctimeMs };
  return { row, pass: "new", toolsAtOnce: true, oneRead: ONE_READ_BYTES };
}

/** Some sessions of a store, to append to. */
function someSessions(store: string, n: number): string[] {
  const out: string[] = [];
  for (const dir of readdirSync(store)) for (const f of readdirSync(join(store, dir))) out.push(join(store, dir, f));
  return out.sort().slice(0, n);
}

describe("text readers (other threads read and parse while this one writes)", () => {
  it("index the same lines, FTS terms and text states as one thread: both passes, tool texts at once, an append, files too large for a reader", async () => {
    const readers = TextReaders.start(BUILT_WORKER, 2, 1);
    expect(readers, "npm run build makes dist/src/index/text-worker.js").toBeDefined();
    /** indexStaleText with readers, expecting `small` files written as a reader read them. */
    const withReaders = async (db: IndexDb, options: StaleOptions, small: number) => {
      // Counted where the writing thread writes a reader's read (it reads the rest itself, and
      // would index the same rows without any reader: the equality alone proves nothing).
      readers!.written = 0;
      const written = await indexStaleText(db, undefined, { ...options, readers });
      expect(small).toBeGreaterThan(0);
      expect(readers!.written).toBe(small);
      return written;
    };
    try {
      const one = await summarized();
      const many = await summarized();
      // Files over 5,000 bytes are read by the writing thread, the rest by the readers.
      for (const toolsAtOnce of [false, true]) {
        const oneRead = 5000;
        const a = await oneThread(one.index.db, { toolsAtOnce, oneRead });
        const b = await withReaders(many.index.db, { toolsAtOnce, oneRead }, a.small);
        expect(b).toEqual(a.written);
        expect(held(many)).toEqual(held(one));
        // Appended to: indexed from where each stopped; and one rewritten, read whole again (its lines forgotten first).
        for (const x of [one, many]) {
          const [first, second, third] = someSessions(x.store, 3);
          appendFileSync(first!, readFileSync(first!, "utf8").split("\n")[1]! + "\n");
          appendFileSync(second!, "\n");
          writeFileSync(third!, readFileSync(third!, "utf8").replace(/"role":"user"/, '"role":"user" '));
          settle(x.store);
          await scanStore(x.store, {}, { cache: x.index.scans });
        }
      }
      const a = await oneThread(one.index.db, {});
      await withReaders(many.index.db, {}, a.small);
      expect(held(many)).toEqual(held(one));
      expect(held(one).lines.length).toBeGreaterThan(100);
      // The writing thread hands each group's buffer back once written: later groups pack into it.
      expect(readers!.reused).toBeGreaterThan(0);
      one.index.close();
      many.index.close();
    } finally {
      await readers!.close();
    }
  });

  it("send a group's rows in one buffer, transferred, and pack a later group's into the buffer handed back: the rows as this thread reads them", async () => {
    const x = await summarized();
    const jobs: TextJob[] = staleTextFiles(x.index.db)
      .filter((row) => row.size! <= ONE_READ_BYTES)
      .map((row) => ({ row, pass: "new", toolsAtOnce: true, oneRead: ONE_READ_BYTES }));
    expect(jobs.length).toBeGreaterThan(3);
    const here = await Promise.all(jobs.map(rowsHere));
    expect(here.reduce((n, r) => n + r.texts.length, 0)).toBeGreaterThan(100);
    const readers = TextReaders.start(BUILT_WORKER, 1, 1)!;
    try {
      const first = (await readers.read(jobs))!;
      expect(first.map(unpacked)).toEqual(here);
      expect(readers.reused).toBe(0);
      // Released, the buffer goes back to the reader (moved, not copied: this view of it is emptied).
      first.forEach((r) => r.release());
      expect(first[0]!.buf.length).toBe(0);
      // The same files the other way round: other bytes over the ones the buffer held.
      const back = [...jobs].reverse();
      const second = (await readers.read(back))!;
      expect(readers.reused).toBe(1);
      expect(second.map(unpacked)).toEqual([...here].reverse());
      // A group not yet wholly released keeps its buffer: the next group gets a new one.
      second.slice(1).forEach((r) => r.release());
      second[1]!.release();
      const third = (await readers.read(jobs.slice(0, 2)))!;
      expect(readers.reused).toBe(1);
      expect(third.map(unpacked)).toEqual(here.slice(0, 2));
    } finally {
      await readers.close();
    }
    x.index.close();
  });

  it("keep no buffer grown past twice the first for later groups: a group of large texts gets its own, let go once written", async () => {
    const dir = makeTmpDir();
    const job = (fid: number, chars: number) =>
      sessionJob(join(dir, `${fid}.jsonl`), fid, oneLineSession(`${fid} `.repeat(chars / 2)));
    const large = [1, 2, 3].map((fid) => job(fid, 900_000));
    const small = [job(4, 1000)];
    const readers = TextReaders.start(BUILT_WORKER, 1, 1)!;
    try {
      const read = async (jobs: TextJob[]) => {
        const reads = (await readers.read(jobs))!;
        expect(reads.map((r) => r.reply.rows.count)).toEqual(jobs.map(() => 1));
        const size = reads[0]!.buf.length;
        reads.forEach((r) => r.release());
        return size;
      };
      // 2.7 MB of rows: a buffer of 4 MB, not kept by the reader once handed back.
      expect(await read(large)).toBe(4 * 1024 * 1024);
      expect(await read(small)).toBe(1024 * 1024);
      expect(readers.reused).toBe(0);
      // One of the first size is kept.
      expect(await read(small)).toBe(1024 * 1024);
      expect(readers.reused).toBe(1);
    } finally {
      await readers.close();
    }
  });

  it("count a group's buffer as one handed back only when its rows came in that one, not in one it grew into", async () => {
    const dir = makeTmpDir();
    const small = [sessionJob(join(dir, "1.jsonl"), 1, oneLineSession("small"))];
    const large = [2, 3].map((fid) => sessionJob(join(dir, `${fid}.jsonl`), fid, oneLineSession("x".repeat(900_000))));
    const readers = TextReaders.start(BUILT_WORKER, 1, 1)!;
    try {
      const read = async (jobs: TextJob[]) => (await readers.read(jobs))!.forEach((r) => r.release());
      await read(small);
      // The buffer handed back is too small for these rows: they come in a larger one.
      await read(large);
      expect(readers.reused).toBe(0);
      // That one (2 MB) is handed back and kept: the next group's rows come in it.
      await read(small);
      expect(readers.reused).toBe(1);
    } finally {
      await readers.close();
    }
  });

  it("are not started without a built worker (the writing thread reads every file)", () => {
    expect(TextReaders.start(pathToFileURL(join(REPO, "no-such-worker.js")))).toBeUndefined();
  });

  it("start none on one core, and no more than the groups read ahead at once", () => {
    expect([1, 2, 3, 4, 5, 6, 64].map((cores) => readerCount(cores))).toEqual([0, 1, 2, 3, 4, 4, 4]);
    expect(TextReaders.start(BUILT_WORKER, 0)).toBeUndefined();
  });

  it("are started by a pass of READERS_FROM_FILES files or more only: none for a run with nothing to do, nor for a few files", async () => {
    const x = await summarized();
    await indexStaleText(x.index.db, undefined, { toolsAtOnce: true });
    for (const fromFiles of [READERS_FROM_FILES, 1]) {
      const readers = TextReaders.start(BUILT_WORKER, 2, fromFiles)!;
      try {
        expect(await indexStaleText(x.index.db, undefined, { toolsAtOnce: true, readers })).toEqual({
          text: 0,
          tools: 0,
        });
        expect(readers.started).toBe(0);
      } finally {
        await readers.close();
      }
    }
    for (const file of someSessions(x.store, 3)) appendFileSync(file, "\n");
    settle(x.store);
    await scanStore(x.store, {}, { cache: x.index.scans });
    const readers = TextReaders.start(BUILT_WORKER, 2)!;
    try {
      // (settle dates every file back: all of the fixture's few files are read again.)
      const { text } = await indexStaleText(x.index.db, undefined, { toolsAtOnce: true, readers });
      expect(text).toBeGreaterThan(0);
      expect(text).toBeLessThan(READERS_FROM_FILES);
      expect(readers.started).toBe(0);
    } finally {
      await readers.close();
    }
    x.index.close();
  });

  // A reader that dies must not leave the writing thread waiting on its answer (it reads those files itself).
  for (const [how, body] of [
    ["throws", 'throw new Error("a reader failed")'],
    ["exits", "process.exit(3)"],
  ] as const)
    it(`a reader that ${how} on a message leaves its files to the writing thread: the same rows as one thread`, async () => {
      const worker = join(makeTmpDir(), "failing-worker.mjs");
      writeFileSync(
        worker,
        `import { parentPort } from "node:worker_threads";\nparentPort.on("message", () => { ${body}; });\n`,
      );
      const readers = TextReaders.start(pathToFileURL(worker), 2, 1)!;
      try {
        const one = await summarized();
        const many = await summarized();
        const a = await indexStaleText(one.index.db, undefined, { toolsAtOnce: true });
        const b = await indexStaleText(many.index.db, undefined, { toolsAtOnce: true, readers });
        expect(b).toEqual(a);
        expect(held(many)).toEqual(held(one));
        expect(held(one).lines.length).toBeGreaterThan(100);
        one.index.close();
        many.index.close();
      } finally {
        await readers.close();
      }
    }, 20_000);

  it("a reader that dies on one file leaves only its own groups to the writing thread: the others, and a reader in its place, read the rest", async () => {
    const one = await summarized(3);
    const many = await summarized(3);
    // The built reader, but one that exits (as out of memory) when given the pass's first file.
    const [first] = filesToDo(many.index.db, "new");
    const path = (many.index.db.q("SELECT path FROM files WHERE fid = ?").get(first!) as { path: string }).path;
    const worker = join(makeTmpDir(), "dying-worker.mjs");
    writeFileSync(
      worker,
      `import { parentPort } from "node:worker_threads";\n` +
        `parentPort.on("message", (m) => { if (m.jobs?.some((j) => j.row.path === ${JSON.stringify(path)})) process.exit(134); });\n` +
        `await import(${JSON.stringify(BUILT_WORKER.href)});\n`,
    );
    const readers = TextReaders.start(pathToFileURL(worker), 2, 1)!;
    try {
      const small = smallFiles(many.index.db, filesToDo(many.index.db, "new"), ONE_READ_BYTES);
      expect(small).toBeGreaterThan(2 * GROUP_FILES);
      const a = await indexStaleText(one.index.db, undefined, { toolsAtOnce: true, tools: false });
      const b = await indexStaleText(many.index.db, undefined, { toolsAtOnce: true, tools: false, readers });
      expect(b).toEqual(a);
      expect(held(many)).toEqual(held(one));
      // The dead reader's groups (at most two of the four read ahead at once) were read here,
      // every other file on a reader: the one still running, then the one in its place.
      expect(readers.written).toBeGreaterThanOrEqual(small - 2 * GROUP_FILES);
      expect(readers.started).toBe(2);
    } finally {
      await readers.close();
    }
    one.index.close();
    many.index.close();
  }, 20_000);

  it("read the worst file a reader is given without running out of memory: one line of ONE_READ_BYTES that parses into the most objects", async () => {
    const room = ONE_READ_BYTES - oneLineSession("kept", "").length;
    const dir = makeTmpDir();
    const jobs: TextJob[] = Object.entries({
      nested: "[".repeat(room >> 1) + "]".repeat(room >> 1),
      objects:
        "[" +
        Array<string>(Math.floor((room - 2) / 3))
          .fill("{}")
          .join(",") +
        "]",
    }).map(([name, details], i) => {
      const job = sessionJob(join(dir, `${name}.jsonl`), i + 1, oneLineSession("kept", details));
      expect(job.row.size).toBeLessThanOrEqual(ONE_READ_BYTES);
      expect(job.row.size).toBeGreaterThan(ONE_READ_BYTES - 4);
      return job;
    });
    const readers = TextReaders.start(BUILT_WORKER, 1, 1)!;
    try {
      for (const job of jobs) {
        const read = await readers.read([job]);
        expect(read, job.row.path).toBeDefined();
        expect(unpacked(read![0]!).texts).toEqual(["kept"]);
        read![0]!.release();
      }
    } finally {
      await readers.close();
    }
  }, 30_000);

  /**
   * Indexes with readers whose first group is answered at once (nothing read: the writing
   * thread reads its files itself, its batch left open) and whose second is answered once
   * another connection has tried to write, `after` ms past the first group written; whether
   * it could (the write lock free while the writing thread waits on a reader).
   */
  async function otherWritesWhileWaited(after: number, batchMs?: number): Promise<boolean | undefined> {
    const x = await summarized();
    const { file } = x.index.db.q("PRAGMA database_list").get() as { file: string };
    const files = filesToDo(x.index.db, "new").length;
    expect(files).toBeGreaterThan(GROUP_FILES);
    let answerSecond = () => {};
    const second = new Promise<void>((resolve) => (answerSecond = resolve));
    let groups = 0;
    const readers = {
      fromFiles: 1,
      written: 0,
      read: async (jobs: TextJob[]) => {
        if (groups++ > 0) await second;
        return jobs.map(() => ({ ...fakeRead(() => {}), reply: { ...fakeReply(), text: false as const } }));
      },
    } as unknown as TextReaders;
    let wrote: boolean | undefined;
    const other = new DatabaseSync(file);
    const tryWrite = () => {
      try {
        other.exec("BEGIN IMMEDIATE; ROLLBACK;");
        wrote = true;
      } catch {
        wrote = false;
      }
      answerSecond();
    };
    const onProgress = (p: IndexProgress) => {
      if (p.pass === "text" && p.done === GROUP_FILES) setTimeout(tryWrite, after);
    };
    const { text } = await indexStaleText(x.index.db, onProgress, {
      toolsAtOnce: true,
      readers,
      tools: false,
      batchMs,
    });
    expect(text).toBe(files);
    other.close();
    x.index.close();
    return wrote;
  }

  it("are waited for with the write lock held no longer than a batch: another process can write while the writing thread waits on a reader", async () => {
    // Past the batch's half second (BATCH_MS): it is not held open for longer while waiting.
    expect(await otherWritesWhileWaited(800)).toBe(true);
  });

  it("are waited for with the batch kept open while it may be: no commit at each wait (more, smaller batches)", async () => {
    // A batch that may stay open a minute: the lock is still held 20 ms into the wait.
    expect(await otherWritesWhileWaited(20, 60_000)).toBe(false);
  });

  it("read ahead at most AHEAD_FILES files and AHEAD_BYTES bytes, and as far as those", async () => {
    const oneRead = 1024 * 1024;
    for (const [files, size, most] of [
      [300, 10_000, { files: AHEAD_FILES, bytes: AHEAD_FILES * 10_000 }],
      [100, oneRead, { files: AHEAD_BYTES / oneRead, bytes: AHEAD_BYTES }],
    ] as const) {
      let sent = 0;
      let taken = 0;
      const held = { files: 0, bytes: 0 };
      const readers = {
        read: (jobs: TextJob[]) => {
          sent += jobs.length;
          held.files = Math.max(held.files, sent - taken);
          held.bytes = Math.max(held.bytes, (sent - taken) * size);
          return Promise.resolve(jobs.map(() => fakeRead(() => {})));
        },
      } as unknown as TextReaders;
      const row = (fid: number) => fakeRow(fid, size);
      const fids = Array.from({ length: files }, (_, i) => i + 1);
      const ahead = new ReadAhead(readers, fids, row, { pass: "new", toolsAtOnce: true, oneRead });
      for (const fid of fids) {
        expect(await ahead.take(fid, row(fid))).toBeDefined();
        taken++;
      }
      expect(sent).toBe(files);
      expect(held).toEqual(most);
    }
  });

  it("a read made from a file's row that changed since is not used, nor one of a file the pass skips", async () => {
    const row = fakeRow;
    const released: number[] = [];
    const asked: number[][] = [];
    const readers = {
      read: (jobs: TextJob[]) => (
        asked.push(jobs.map((j) => j.row.fid)),
        Promise.resolve(jobs.map((j) => fakeRead(() => released.push(j.row.fid))))
      ),
    } as unknown as TextReaders;
    const rows = new Map([1, 2, 3, 4].map((fid) => [fid, row(fid, fid === 3 ? 5000 : 100)]));
    const ahead = new ReadAhead(readers, [1, 2, 3, 4], (fid) => rows.get(fid), {
      pass: "new",
      toolsAtOnce: true,
      oneRead: 1000,
    });
    expect((await ahead.take(1, row(1, 100)))?.reply).toEqual(fakeReply());
    // File 2 grew after it was read ahead: the writing thread reads it again.
    expect(await ahead.take(2, row(2, 150))).toBeUndefined();
    // File 3 is larger than a reader reads: never sent.
    expect(await ahead.take(3, row(3, 5000))).toBeUndefined();
    expect(await ahead.take(4, undefined)).toBeUndefined();
    // In one message (GROUP_FILES).
    expect(asked).toEqual([[1, 2, 4]]);
    // The reads not used are released (their buffer goes back to the reader once all are);
    // the one used is the caller's to release once written.
    expect(released).toEqual([2, 4]);
  });

  it("write a row's tool flag other than 0 as a tool line (1): a search of the tool texts asking a file's lines by range finds it", async () => {
    const x = await summarized();
    // A reader that reads each file as this thread does but flags its tool rows 2, not 1 (a byte of its own).
    const readers = {
      fromFiles: 1,
      written: 0,
      read: async (jobs: TextJob[]): Promise<TextRead[]> => {
        const packer = new RowPacker(Buffer.alloc(1024));
        const replies: TextReply[] = [];
        for (const job of jobs) {
          const at = packer.pos;
          let forget = false;
          let count = 0;
          let chars = 0;
          const sink = {
            start: (f: boolean) => (forget = f),
            rows: (r: TextRows) => {
              packer.add({ ...r, tools: r.tools.map((t) => (t ? 2 : 0)) });
              count += r.texts.length;
              chars += r.chars;
            },
          };
          const text = await readFileText(job.row, job.pass, job.toolsAtOnce, job.oneRead, sink, true);
          replies.push({ text, forget, rows: { at, count, chars } });
        }
        return replies.map((reply) => ({ reply, buf: packer.buf, release: () => {} }));
      },
    } as unknown as TextReaders;
    await indexStaleText(x.index.db, undefined, { toolsAtOnce: true, readers });
    expect(readers.written).toBeGreaterThan(0);
    const flags = x.index.db.q("SELECT DISTINCT tool FROM lines ORDER BY tool").all() as Array<{ tool: number }>;
    expect(flags.map((r) => r.tool)).toEqual([0, 1]);
    const targets = someSessions(x.store, Infinity).map((path) => {
      const st = statSync(path);
      return { path, bytes: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
    });
    let hits = 0;
    for (const q of ["tool", "file", "parser"]) {
      const exact = planWithIndex(x.index.db, parseQuery(q), true, undefined, { lazyAbove: Infinity })!;
      const byRange = planWithIndex(x.index.db, parseQuery(q), true, undefined, { lazyAbove: 0, listUpTo: 0 })!;
      for (const t of targets) {
        const want = await exact.check(t);
        if (want) hits++;
        expect({ q, path: t.path, got: await byRange.check(t) }).toEqual({ q, path: t.path, got: want });
      }
    }
    expect(hits).toBeGreaterThan(0);
    x.index.close();
  });
});

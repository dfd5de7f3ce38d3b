import { createHash } from "node:crypto";
import {
  closeSync,
  fstatSync,
  fsyncSync,
  readdirSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32 } from "node:zlib";
import { ANSWER_MAGIC, answersDirOf, removeAnswerFile } from "../../index/answer-files.js";
import { createOwnFile, openOwnFile, ownFolder } from "../../index/cache-folder.js";
import { indexFoldersProblem } from "../../index/index-db.js";
import { CHUNK, chunksOf, keptBytes, keptFileOf, type KeptFile } from "./kept-file.js";

/*
 * The last answer of a command that reads the whole store (`list --json`), kept in the
 * index beside the fingerprint of the store it was made from: every file's path and
 * identity (inode, size, mtime, the index's own rule for "unchanged") and every problem
 * discovery met. A store with the same fingerprint gives the same answer byte for byte, so
 * a relaunch on an unchanged store writes it out without reading a summary. Anything else
 * (a changed, new or gone file, other options, another build of pi-sessions) misses, and the
 * command runs as without it. A cache like the rest of the index: any failure is a miss,
 * but one while a checked answer is written out (KeptFile.chunks), when bytes may be out.
 *
 * Each answer is a file in a folder beside the index (answersDirOf), not a row in it: SQLite
 * reads a 10 MB value through a chain of 2,500 pages in 8–14 ms, a file is read in 1–2 ms.
 * Written to a temporary name, flushed to the disk (fsync) and renamed: a reader sees the
 * old answer or the new one. Its header line says how long the answer is and its checksum
 * (CRC-32 of the fingerprint, what went to stderr and the answer): one cut short (a crash,
 * a full disk) or with a bit flipped is a miss, never printed.
 * The folder and its files are ours alone (src/index/cache-folder.ts): a folder that is a
 * link or another user's is not used, no file is opened through a link, and what is
 * cleaned up is only what is ours by its name and its header (src/index/answer-files.ts).
 */

/** The bundle's own id (scripts/bundle.mjs defines it); undefined when run unbundled. */
declare const __PI_SESSIONS_BUILD__: string | undefined;

/** The program that made an answer: a rebuilt or upgraded pi-sessions never serves an old one. */
function buildStamp(): string {
  if (typeof __PI_SESSIONS_BUILD__ === "string") return __PI_SESSIONS_BUILD__;
  // Unbundled (tests, the extension's build): this file as it is now.
  try {
    const st = statSync(fileURLToPath(import.meta.url));
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return "?";
  }
}

/**
 * Answers larger than this are not kept. Not lower: the answers grow with the sessions (the
 * search rows are ~0.8 KB a session, `list --json`'s ~0.9 KB), and a cap a large store passes
 * makes every run of it read the whole store again (at 100,000 sessions, 64 MiB did).
 */
const MAX_ANSWER = 512 << 20;

/**
 * What this build's answers may hold in all, on disk: once a new one passes it, the others are
 * dropped, the least recently written first. At 100,000 sessions one `list --json` per sort or
 * folder is ~80 MB; without a bound the folder would grow by one such for each question asked.
 */
const ANSWERS_BUDGET = 512 << 20;

export interface Answer {
  out: Uint8Array;
  err: string;
  /** What follows `out` when only the answer's first part was read (AnswerCache.latestPart). */
  rest?: AnswerRest;
}

/**
 * The bytes of a kept answer after its first part, read when asked: from the very file the
 * part was read from, kept open until the cache's close() (no other answer's bytes are ever
 * returned, even once another run has replaced the file; read after close() throws). Not
 * checksummed here: the part says what they must be (search-rows.ts keeps a CRC per block of them).
 */
export interface AnswerRest {
  length: number;
  /** `length` bytes from `at` (from the rest's start); throws when they cannot be read from that file. */
  read(at: number, length: number): Buffer;
}

/**
 * An answer to keep: its bytes as one buffer or in pieces, written one after another (a
 * text list's 10 MB joined into one more buffer first would only raise the run's peak).
 */
export interface AnswerToKeep {
  out: Uint8Array | readonly Uint8Array[];
  err: string;
  /**
   * How many of its first bytes can be read and checked alone (latestPart: their own CRC in
   * the header), the rest read only when asked; undefined: read whole.
   */
  part?: number;
}

const piecesOf = (out: AnswerToKeep["out"]): readonly Uint8Array[] => (out instanceof Uint8Array ? [out] : out);

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/** The checksum a kept answer carries: of its fingerprint, its stderr text and its bytes (in pieces or not: the same). */
function checksum(fingerprint: string, err: string, out: AnswerToKeep["out"]): number {
  let crc = crc32(`${fingerprint}\0${err}\0`);
  for (const piece of piecesOf(out)) crc = crc32(piece, crc);
  return crc;
}

/** The first `part` bytes of an answer's pieces (a part is checksummed alone: Header.partCrc). */
function firstBytes(out: AnswerToKeep["out"], part: number): Uint8Array[] {
  const first: Uint8Array[] = [];
  for (const piece of piecesOf(out)) {
    if (part <= 0) break;
    first.push(piece.subarray(0, part));
    part -= piece.length;
  }
  return first;
}

/** An answer file's header: its first line. */
interface Header {
  fingerprint: string;
  err: string;
  /** The answer's length in bytes, and checksum(). */
  bytes: number;
  crc: number;
  /** The answer's first part (AnswerToKeep.part), in bytes, and checksum() of it alone. */
  part?: number;
  partCrc?: number;
}

/** The header line's fields, when they are a header's of this format. */
function headerOf(line: string): Header | undefined {
  if (!line.startsWith(ANSWER_MAGIC)) return undefined;
  try {
    const h = JSON.parse(line) as Partial<Header>;
    if (typeof h.fingerprint !== "string" || typeof h.err !== "string") return undefined;
    if (!Number.isSafeInteger(h.bytes) || !Number.isSafeInteger(h.crc)) return undefined;
    if (h.part !== undefined || h.partCrc !== undefined) {
      const { part, partCrc, bytes } = h as Header;
      if (!Number.isSafeInteger(part) || part! < 0 || part! > bytes || !Number.isSafeInteger(partCrc)) return undefined;
    }
    return h as Header;
  } catch {
    return undefined;
  }
}

/** The whole of an open file, or undefined when it cannot be read (or is larger than an answer can be). */
function readWhole(fd: number): Buffer | undefined {
  const size = fstatSync(fd).size;
  if (size > MAX_ANSWER + 64 * 1024 * 1024) return undefined;
  const buf = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return got === size ? buf : undefined;
}

/** `length` bytes of an open file from `at`, or undefined when fewer are there. */
function readAt(fd: number, at: number, length: number): Buffer | undefined {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, at + got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? buf : undefined;
}

/** The header line of an open answer file (read a few KB at a time), and where the answer starts. */
function headLine(fd: number): { line: string; at: number } | undefined {
  let line = Buffer.alloc(0);
  for (let at = 0; ;) {
    const chunk = Buffer.allocUnsafe(4096);
    const n = readSync(fd, chunk, 0, chunk.length, at);
    if (n === 0) return undefined;
    const eol = chunk.subarray(0, n).indexOf(0x0a);
    line = Buffer.concat([line, chunk.subarray(0, eol >= 0 ? eol : n)]);
    if (eol >= 0) return { line: line.toString("utf8"), at: at + eol + 1 };
    at += n;
  }
}

/** How many bytes an answer to keep has. */
const lengthOf = (out: AnswerToKeep["out"]) => piecesOf(out).reduce((n, p) => n + p.length, 0);

/** All of `bytes` to `fd` (a write may take fewer than it was given). */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
}

/** The answers kept beside the index at `indexPath`: files, read without opening SQLite. */
export class AnswerCache {
  private readonly dir: string;
  /** Every file of this build's answers starts with it: files of another build are dropped. */
  private readonly prefix = `${sha(buildStamp()).slice(0, 16)}-`;
  constructor(
    private readonly indexPath: string,
    private readonly budget = ANSWERS_BUDGET,
  ) {
    this.dir = answersDirOf(indexPath);
  }

  private fileOf(key: string): string {
    return join(this.dir, this.prefix + sha(key).slice(0, 32));
  }

  /** The kept answer to `key` for a store with this fingerprint, or undefined. */
  get(key: string, fingerprint: string): Answer | undefined {
    const kept = this.latest(key);
    return kept?.fingerprint === fingerprint ? { out: kept.out, err: kept.err } : undefined;
  }

  /**
   * Whether the answers folder, and the folders above it the index is in, are ours to use
   * (folders of this user, not links: src/index/cache-folder.ts); the answers folder made
   * (0700) when `create`. Asked once a run each way.
   */
  private usable(create: boolean): boolean {
    if (create)
      return (this.made ??=
        indexFoldersProblem(this.indexPath, false) === undefined && ownFolder(this.dir, true) === undefined);
    return (this.seen ??= indexFoldersProblem(this.indexPath, false) === undefined);
  }
  private made?: boolean;
  private seen?: boolean;

  /** A file of the folder opened to read (ours, never through a link), or undefined. */
  private open(key: string): number | undefined {
    return this.usable(false) ? openOwnFile(this.fileOf(key)) : undefined;
  }

  /**
   * The fingerprint of the store the answer kept for `key` was of, from the file's first
   * bytes (an answer of another store need not be read: it can be ten megabytes).
   */
  fingerprintOf(key: string): string | undefined {
    const fd = this.open(key);
    if (fd === undefined) return undefined;
    let head: string | undefined;
    try {
      const bytes = Buffer.allocUnsafe(4096);
      const n = readSync(fd, bytes, 0, bytes.length, 0);
      const eol = bytes.subarray(0, n).indexOf(0x0a);
      if (eol >= 0) head = bytes.toString("utf8", 0, eol);
    } catch {
      return undefined;
    } finally {
      closeSync(fd);
    }
    // A header longer than that (what was said on stderr is in it): the whole file.
    if (head === undefined) return this.latest(key)?.fingerprint;
    return headerOf(head)?.fingerprint;
  }

  /** The answer kept last for `key`, whatever store it was of (its fingerprint says), or undefined. */
  latest(key: string): (Answer & { fingerprint: string }) | undefined {
    const fd = this.open(key);
    if (fd === undefined) return undefined; // none kept, or not ours: a miss
    let bytes: Buffer | undefined;
    try {
      bytes = readWhole(fd);
    } catch {
      // not readable: a miss
    } finally {
      closeSync(fd);
    }
    if (!bytes) return undefined;
    // A header line (the fingerprint, the stderr text, the answer's length and checksum, as
    // JSON), then the answer's bytes: all of them, as they were written, or none is used.
    const eol = bytes.indexOf(0x0a);
    if (eol < 0) return undefined;
    const head = headerOf(bytes.toString("utf8", 0, eol));
    const out = bytes.subarray(eol + 1);
    if (!head || out.length !== head.bytes || checksum(head.fingerprint, head.err, out) !== head.crc) return undefined;
    return { out, err: head.err, fingerprint: head.fingerprint };
  }

  /**
   * As latest, but of an answer kept with a first part (AnswerToKeep.part) only that part is
   * read and checked (its own CRC), `out`, and the rest is read from the same file when asked
   * (`rest`); an answer kept without one is read whole, as latest reads it.
   */
  latestPart(key: string): (Answer & { fingerprint: string }) | undefined {
    const fd = this.open(key);
    if (fd === undefined) return undefined;
    let head: Header | undefined;
    let at: number;
    let out: Buffer | undefined;
    let held = false;
    try {
      const size = fstatSync(fd).size;
      const line = headLine(fd);
      head = line && headerOf(line.line);
      if (!line || !head) return undefined;
      at = line.at;
      if (head.part !== undefined && size === at + head.bytes) out = readAt(fd, at, head.part);
      if (out && checksum(head.fingerprint, head.err, out) === head.partCrc) held = true;
    } catch {
      return undefined; // not readable: a miss
    } finally {
      if (!held) closeSync(fd);
    }
    if (head.part === undefined) return this.latest(key);
    if (!held) return undefined;
    // The rest is read from this very fd until close(): the file it was opened on, even once
    // another run renames its own answer over it (an answer is only ever replaced whole).
    this.held.push(fd);
    const restAt = at + head.part!;
    const rest: AnswerRest = {
      length: head.bytes - head.part!,
      read: (from, length) => {
        if (!this.held.includes(fd)) throw new Error("a kept answer was closed");
        const bytes = from >= 0 && from + length <= rest.length ? readAt(fd, restAt + from, length) : undefined;
        if (!bytes) throw new Error("a kept answer is cut short");
        return bytes;
      },
    };
    return { out: out!, err: head.err, fingerprint: head.fingerprint, rest };
  }

  /** The files answers were read a part of from (latestPart), open for their rest. */
  private readonly held: number[] = [];

  /** Closes the files kept open for the rest of answers read in part (latestPart): their rests are not read after. */
  close(): void {
    for (const fd of this.held.splice(0)) closeSync(fd);
  }

  /**
   * The answer kept for `key` for a store with this fingerprint, to be read a chunk at a
   * time, or undefined: checked whole (its length and checksum) a chunk at a time first, so
   * one cut short or with a bit flipped is a miss, as with get(). The file stays open until
   * its chunks are all read.
   */
  file(key: string, fingerprint: string): KeptFile | undefined {
    const fd = this.open(key);
    if (fd === undefined) return undefined;
    let handed = false;
    try {
      const size = fstatSync(fd).size;
      if (size > MAX_ANSWER + 64 * 1024 * 1024) return undefined;
      // The header alone first: an answer of another store is not read further.
      const start = Buffer.allocUnsafe(4096);
      const eol = start.subarray(0, readSync(fd, start, 0, start.length, 0)).indexOf(0x0a);
      if (eol < 0) {
        // A header longer than a chunk (what was said on stderr is in it): read whole. get()
        // opens the file again (this fd is closed below): a rare path, kept simple.
        const a = this.get(key, fingerprint);
        return a && keptBytes(a.err, a.out);
      }
      const head = headerOf(start.toString("utf8", 0, eol));
      if (!head || head.fingerprint !== fingerprint || size - (eol + 1) !== head.bytes) return undefined;
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, head.bytes));
      let crc = crc32(`${head.fingerprint}\0${head.err}\0`);
      for (const chunk of chunksOf(fd, buf, eol + 1, size, false)) crc = crc32(chunk, crc);
      if (crc !== head.crc) return undefined;
      handed = true;
      return keptFileOf(fd, head.err, eol + 1, head.bytes, buf);
    } catch {
      return undefined; // not readable: a miss
    } finally {
      if (!handed) closeSync(fd);
    }
  }

  /**
   * Whether the last run asked about a store with this same fingerprint (it is saying so for
   * the next run). Only then is an answer worth keeping: a store pi is writing to changes at
   * every run, and keeping its answer each time (a copy of megabytes, written to disk)
   * would only slow those runs.
   */
  settled(key: string, fingerprint: string): boolean {
    const seen = `${key}\0seen`;
    if (this.get(seen, fingerprint)) return true;
    this.write(seen, fingerprint, { out: new Uint8Array(0), err: "" });
    return false;
  }

  /** Keeps the answer (one per key: the last store's); a read-only cache folder keeps nothing. */
  put(key: string, fingerprint: string, a: AnswerToKeep): void {
    if (lengthOf(a.out) <= MAX_ANSWER) this.write(key, fingerprint, a);
  }

  private write(key: string, fingerprint: string, a: AnswerToKeep): void {
    if (!this.usable(true)) return;
    let tmp: string | undefined;
    try {
      this.dropOthers();
      const fields: Header = {
        fingerprint,
        err: a.err,
        bytes: lengthOf(a.out),
        crc: checksum(fingerprint, a.err, a.out),
      };
      if (a.part !== undefined) {
        fields.part = Math.min(a.part, fields.bytes);
        fields.partCrc = checksum(fingerprint, a.err, firstBytes(a.out, fields.part));
      }
      // The magic first (answer-files.ts: what tells an answer file of ours).
      const head = Buffer.from(ANSWER_MAGIC + JSON.stringify(fields).slice(1) + "\n");
      const file = this.fileOf(key);
      tmp = join(this.dir, `.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`);
      // Answers hold the user's first messages: theirs alone, as the index (mode 0600, a new
      // file where nothing was, not even a link). Written in parts: a copy of a list's ten
      // megabytes to put the header before it would only raise the command's peak memory.
      const fd = createOwnFile(tmp);
      try {
        writeAll(fd, head);
        for (const piece of piecesOf(a.out)) writeAll(fd, piece);
        // On the disk before it takes the answer's name: a crash leaves the old one or this one whole.
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, file);
      tmp = undefined;
      this.keepWithinBudget(file);
    } catch {
      // a cache: not kept this time
    } finally {
      if (tmp !== undefined) {
        try {
          unlinkSync(tmp);
        } catch {
          // never made
        }
      }
    }
  }

  /** Drops this build's other answers, the least recently written first, until all fit the budget with `kept`. */
  private keepWithinBudget(kept: string): void {
    const ours = readdirSync(this.dir)
      .filter((name) => name.startsWith(this.prefix))
      .flatMap((name) => {
        try {
          const st = statSync(join(this.dir, name));
          return [{ name, bytes: st.size, at: st.mtimeMs }];
        } catch {
          return []; // gone already
        }
      });
    let total = ours.reduce((n, f) => n + f.bytes, 0);
    for (const f of ours.sort((a, b) => a.at - b.at)) {
      if (total <= this.budget) break;
      if (join(this.dir, f.name) === kept) continue;
      removeAnswerFile(this.dir, f.name);
      total -= f.bytes;
    }
  }

  /**
   * Answers of another build are never served again (an upgrade leaves none behind), nor a
   * temporary file left by a crash (one younger than a minute may be another process's
   * being written). Only files that are answers of ours by their names and headers.
   */
  private dropOthers(): void {
    for (const name of readdirSync(this.dir)) {
      if (!name.startsWith(this.prefix)) removeAnswerFile(this.dir, name, 60_000);
    }
  }
}

import { createHash } from "node:crypto";
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { answersDirOf } from "../../index/index-db.js";

/*
 * The last answer of a command that reads the whole store (`list --json`), kept in the
 * index beside the fingerprint of the store it was made from: every file's path and
 * identity (inode, size, mtime, the index's own rule for "unchanged") and every problem
 * discovery met. A store with the same fingerprint gives the same answer byte for byte, so
 * a relaunch on an unchanged store writes it out without reading a summary. Anything else
 * (a changed, new or gone file, other options, another build of pi-sessions) misses, and the
 * command runs as without it. A cache like the rest of the index: any failure is a miss.
 *
 * Each answer is a file in a folder beside the index (answersDirOf), not a row in it: SQLite
 * reads a 10 MB value through a chain of 2,500 pages in 8–14 ms, a file is read in 1–2 ms.
 * Written to a temporary name and renamed: a reader sees the old answer or the new one.
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

/** Answers larger than this are not kept (the index stays small; such a store is rare). */
const MAX_ANSWER = 64 << 20;

export interface Answer {
  out: Uint8Array;
  err: string;
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/** All of `bytes` to `fd` (a write may take fewer than it was given). */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
}

/** The answers kept beside the index at `indexPath`: files, read without opening SQLite. */
export class AnswerCache {
  private readonly dir: string;
  /** Every file of this build's answers starts with it: files of another build are dropped. */
  private readonly prefix = `${sha(buildStamp()).slice(0, 16)}-`;
  constructor(indexPath: string) {
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
   * The fingerprint of the store the answer kept for `key` was of, from the file's first
   * bytes (an answer of another store need not be read: it can be ten megabytes).
   */
  fingerprintOf(key: string): string | undefined {
    let fd: number;
    try {
      fd = openSync(this.fileOf(key), "r");
    } catch {
      return undefined;
    }
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
    try {
      const { fingerprint } = JSON.parse(head) as { fingerprint?: unknown };
      return typeof fingerprint === "string" ? fingerprint : undefined;
    } catch {
      return undefined;
    }
  }

  /** The answer kept last for `key`, whatever store it was of (its fingerprint says), or undefined. */
  latest(key: string): (Answer & { fingerprint: string }) | undefined {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.fileOf(key));
    } catch {
      return undefined; // none kept, or not readable: a miss
    }
    // A header line (the fingerprint and the stderr text, as JSON), then the answer's bytes.
    const eol = bytes.indexOf(0x0a);
    if (eol < 0) return undefined;
    try {
      const head = JSON.parse(bytes.toString("utf8", 0, eol)) as { fingerprint?: unknown; err?: unknown };
      if (typeof head.fingerprint !== "string" || typeof head.err !== "string") return undefined;
      return { out: bytes.subarray(eol + 1), err: head.err, fingerprint: head.fingerprint };
    } catch {
      return undefined; // torn or foreign: a miss
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
  put(key: string, fingerprint: string, a: Answer): void {
    if (a.out.length <= MAX_ANSWER) this.write(key, fingerprint, a);
  }

  private write(key: string, fingerprint: string, a: Answer): void {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.dropOthers();
      const head = Buffer.from(JSON.stringify({ fingerprint, err: a.err }) + "\n");
      const file = this.fileOf(key);
      const tmp = join(this.dir, `.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`);
      // Answers hold the user's first messages: theirs alone, as the index. Written in two
      // parts: a copy of a list's ten megabytes to put the header before it would only
      // raise the command's peak memory.
      const fd = openSync(tmp, "w", 0o600);
      try {
        writeAll(fd, head);
        writeAll(fd, a.out);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, file);
    } catch {
      // a cache: not kept this time
    }
  }

  /** Answers of another build are never served again (an upgrade leaves none behind), nor a temporary file left by a crash. */
  private dropOthers(): void {
    const now = Date.now();
    for (const name of readdirSync(this.dir)) {
      if (name.startsWith(this.prefix)) continue;
      const path = join(this.dir, name);
      try {
        // Another process's temporary file may be in the middle of being written.
        if (name.startsWith(".tmp-") && now - statSync(path).mtimeMs < 60_000) continue;
        rmSync(path, { force: true });
      } catch {
        // gone already
      }
    }
  }
}

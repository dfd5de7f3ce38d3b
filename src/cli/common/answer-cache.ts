import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { IndexDb } from "../../index/index-db.js";
import type { Diagnostic } from "../../model/types.js";
import type { SessionFile } from "../../store/discover.js";

/*
 * The last answer of a command that reads the whole store (`list --json`), kept in the
 * index beside the fingerprint of the store it was made from: every file's path and
 * identity (inode, size, mtime, the index's own rule for "unchanged") and every problem
 * discovery met. A store with the same fingerprint gives the same answer byte for byte, so
 * a relaunch on an unchanged store writes it out without reading a summary. Anything else
 * (a changed, new or gone file, other options, another build of pi-sessions) misses, and the
 * command runs as without it. A cache like the rest of the index: any failure is a miss.
 */

/** The program that made an answer: a rebuilt or upgraded pi-sessions never serves an old one. */
function buildStamp(): string {
  try {
    const st = statSync(fileURLToPath(import.meta.url));
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return "?";
  }
}

/** The store as discovery saw it, in one value. */
export function storeFingerprint(found: { files: readonly SessionFile[]; diagnostics: readonly Diagnostic[] }) {
  const h = createHash("sha256");
  const files = [...found.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const f of files) h.update(`${f.path}\0${f.ino ?? ""}\0${f.bytes}\0${f.mtimeMs}\n`);
  for (const d of found.diagnostics) h.update(`!${d.path}\0${d.kind}\0${d.reason}\n`);
  return h.digest("hex");
}

/** Answers larger than this are not kept (the index stays small; such a store is rare). */
const MAX_ANSWER = 64 << 20;

export interface Answer {
  out: Uint8Array;
  err: string;
}

export class AnswerCache {
  private readonly stamp = buildStamp();
  constructor(private readonly db: IndexDb) {}

  private ensure(): void {
    this.db.sql.exec(
      "CREATE TABLE IF NOT EXISTS answers(key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, out BLOB NOT NULL, err TEXT NOT NULL)",
    );
  }

  private keyOf(key: string): string {
    return `${this.stamp}\0${key}`;
  }

  /** The kept answer to `key` for a store with this fingerprint, or undefined. */
  get(key: string, fingerprint: string): Answer | undefined {
    try {
      const row = this.db.sql
        .prepare("SELECT fingerprint, out, err FROM answers WHERE key = ?")
        .get(this.keyOf(key)) as { fingerprint: string; out: Uint8Array; err: string } | undefined;
      return row && row.fingerprint === fingerprint ? { out: row.out, err: row.err } : undefined;
    } catch {
      return undefined; // no table yet, or the index cannot be read: a miss
    }
  }

  /**
   * Whether the last run asked about a store with this same fingerprint (it is saying so for
   * the next run). Only then is an answer worth keeping: a store pi is writing to changes at
   * every run, and keeping its answer each time (a copy of megabytes, written to the index)
   * would only slow those runs.
   */
  settled(key: string, fingerprint: string): boolean {
    const seen = `${key}\0seen`;
    if (this.get(seen, fingerprint)) return true;
    this.write(seen, fingerprint, { out: new Uint8Array(0), err: "" });
    return false;
  }

  /** Keeps the answer (one per key: the last store's); a read-only or busy index keeps nothing. */
  put(key: string, fingerprint: string, a: Answer): void {
    if (a.out.length <= MAX_ANSWER) this.write(key, fingerprint, a);
  }

  private write(key: string, fingerprint: string, a: Answer): void {
    try {
      this.ensure();
      // Answers of another build are never served again: an upgrade does not leave them behind.
      // (Keys hold a NUL, where SQLite's text functions stop: compared as bytes.)
      const prefix = Buffer.from(this.keyOf(""));
      const rows = this.db.sql.prepare("SELECT rowid AS r, CAST(key AS BLOB) AS k FROM answers").all() as Array<{
        r: number;
        k: Uint8Array;
      }>;
      const drop = this.db.sql.prepare("DELETE FROM answers WHERE rowid = ?");
      for (const { r, k } of rows)
        if (Buffer.compare(Buffer.from(k).subarray(0, prefix.length), prefix) !== 0) drop.run(r);
      this.db.sql
        .prepare("INSERT OR REPLACE INTO answers(key, fingerprint, out, err) VALUES(?, ?, ?, ?)")
        .run(this.keyOf(key), fingerprint, a.out, a.err);
    } catch {
      // a cache: not kept this time
    }
  }
}

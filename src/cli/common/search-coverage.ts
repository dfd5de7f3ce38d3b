import { coverageOf, stillCovers, type KnownCoverage } from "../../index/index-search.js";
import type { IndexDb } from "../../index/index-db.js";
import type { SearchTarget } from "../../search/fulltext.js";
import { rowFinder } from "../../search/row-finder.js";
import type { Answer } from "./answer-cache.js";

/*
 * What the index covered of a store's kept search rows (index-search.ts, Coverage), kept
 * beside them for the same store: a relaunch then neither reads 50,000 text states out of
 * SQLite nor looks each row's path up in them, while the index's text generation says
 * nothing changed since. Tied to the very rows it was worked out for (their stamp: the
 * rows kept again for the same store may be in another order), and written as bytes: a
 * short JSON head (layout, text generation, the rows' stamp, the caught-up flags, the
 * few paths not covered), a newline, then per row its fid (32-bit, -1 where not covered)
 * and a byte for its tool texts (1: covered too). Its JSON of 50,000 numbers took 3–7 ms
 * to parse, for the hit and the typo alike.
 */

/** Written into the head: another layout is not read. */
const LAYOUT = 4;

/** At most this many rows the index does not cover are listed with a coverage (coversAll reads them). */
const MAX_UNCOVERED = 64;

/** The head of a kept coverage. */
interface Head {
  v: number;
  gen: string;
  /** The stamp of the rows it was worked out for (search-rows.ts). */
  rows: string;
  n: number;
  /** caughtUp's answer for the conversation, and with the tool texts: 1 or 0. */
  caughtUp: [number, number];
  /** The rows whose conversation the index does not cover; and those whose tool texts it does not either. */
  uncovered: { chat: string[]; tools: string[] } | null;
}

/** A kept coverage read back: its head, and its fids and tools flags by row. */
interface KeptValue extends Head {
  fid: Int32Array;
  tools: Uint8Array;
}
const KEY = "search coverage";

/** A kept Coverage still true of the index as it is now. */
export interface KeptCoverage {
  /** A target's fid where the index covers it (the targets must be the kept rows, as given). */
  known: KnownCoverage;
  /** Whether the index had nothing left to catch up with for the rows (with their tool texts too when `tools`). */
  caughtUp(tools: boolean): boolean;
  /** Whether it is still true (the index may have been written to since it was read). */
  still(db: IndexDb): boolean;
}

export interface CoverageAnswer {
  /** The kept coverage when it is still true of the index, else undefined. */
  read(db: IndexDb): KeptCoverage | undefined;
  /**
   * What the index covers of the rows now, worked out from its text states (one pass over
   * them answers the catch-up's question and the search's); `keep()` keeps it as it is, so
   * the caller keeps it only while `still()` (nothing caught up since); undefined when the
   * index has no text generation (coverageOf).
   */
  workOut(db: IndexDb): (KeptCoverage & { keep(): void }) | undefined;
  /** Keeps what the index covers now (after a search that read its text states). */
  keep(db: IndexDb): void;
}

interface Other {
  get(key: string): Answer | undefined;
  put(key: string, a: Answer): void;
}

const strings = (v: unknown) => Array.isArray(v) && v.every((p) => typeof p === "string");

/** The head alone (the typo's proof needs no more), or undefined when not of this layout. */
function headOf(a: Answer | undefined): { head: Head; eol: number } | undefined {
  if (!a) return undefined;
  const eol = a.out.indexOf(0x0a);
  if (eol < 0) return undefined;
  try {
    const h = JSON.parse(Buffer.from(a.out.buffer, a.out.byteOffset, eol).toString("utf8")) as Head;
    const ok =
      h?.v === LAYOUT &&
      typeof h.gen === "string" &&
      typeof h.rows === "string" &&
      Number.isSafeInteger(h.n) &&
      h.n >= 0 &&
      a.out.length === eol + 1 + 5 * h.n &&
      Array.isArray(h.caughtUp) &&
      h.caughtUp.length === 2 &&
      (h.uncovered === null || (strings(h.uncovered?.chat) && strings(h.uncovered?.tools)));
    return ok ? { head: h, eol } : undefined;
  } catch {
    return undefined;
  }
}

/** The kept coverage of `n` rows stamped `stamp`, or undefined. */
function decode(a: Answer | undefined, n: number, stamp: string): KeptValue | undefined {
  const got = headOf(a);
  if (!got || got.head.n !== n || got.head.rows !== stamp) return undefined;
  const at = a!.out.byteOffset + got.eol + 1;
  // Copied: the bytes need not be aligned for an Int32Array's view.
  const fid = new Int32Array(n);
  new Uint8Array(fid.buffer).set(new Uint8Array(a!.out.buffer, at, 4 * n));
  return { ...got.head, fid, tools: new Uint8Array(a!.out.buffer, at + 4 * n, n) };
}

/** The bytes kept: the head, a newline, the fids, the tools flags. */
function encode(head: Head, fid: readonly number[], tools: readonly number[]): Uint8Array {
  const json = Buffer.from(JSON.stringify(head), "utf8");
  const n = head.n;
  const out = new Uint8Array(json.length + 1 + 5 * n);
  out.set(json);
  out[json.length] = 0x0a;
  const fids = Int32Array.from(fid);
  out.set(new Uint8Array(fids.buffer), json.length + 1);
  out.set(tools, json.length + 1 + 4 * n);
  return out;
}

/**
 * The files of a store's `rows` rows (of this very fingerprint) that the index does not
 * cover as they are now (their conversation; with their tool texts too when `tools`), from
 * the coverage kept for them while it is still true of the index: what holds the rest of
 * their conversations is the index. Undefined when not kept, no longer true, too many, or
 * when the index has text to catch up with (a search indexes it, or says it is read).
 */
export function uncoveredFiles(
  other: Pick<Other, "get">,
  rows: number,
  db: IndexDb,
  tools: boolean,
): readonly string[] | undefined {
  // Paths, not places: true of the rows of this store in whatever order they were kept.
  const c = headOf(other.get(KEY))?.head;
  if (!c?.uncovered || c.n !== rows || c.caughtUp[tools ? 1 : 0] !== 1 || !stillCovers(db, c)) return undefined;
  return tools ? c.uncovered.tools : c.uncovered.chat;
}

/** A coverage (kept, or worked out now) as the search asks it, for these rows. */
function asKept(
  c: { gen: string; fid: ArrayLike<number>; tools: ArrayLike<number>; caughtUp: readonly number[] },
  rows: readonly SearchTarget[],
): KeptCoverage {
  const rowOf = rowFinder(rows);
  return {
    known(t, tools) {
      const i = rowOf(t);
      if (i < 0) return undefined;
      return c.fid[i] >= 0 && (!tools || c.tools[i] === 1) ? c.fid[i] : undefined;
    },
    caughtUp: (tools) => c.caughtUp[tools ? 1 : 0] === 1,
    still: (now) => stillCovers(now, c),
  };
}

/**
 * The coverage answer of these rows (as decoded from the kept rows stamped `stamp`, or as
 * just kept with it: the same objects, in the same order). `fresh`: the stamp was made just
 * now, with the rows, so no coverage kept can be theirs and none is read (at 50,000 sessions
 * it is ~250 KB, checked and its head parsed, for nothing).
 */
export function coverageAnswer(
  other: Other,
  rows: readonly SearchTarget[],
  stamp: string,
  fresh = false,
): CoverageAnswer {
  const workOut = (db: IndexDb) => {
    const c = coverageOf(db, rows);
    if (!c) return undefined;
    return {
      ...asKept(c, rows),
      keep() {
        // An fid past int32 would be kept as another (or no) file's: not kept (never in practice).
        if (c.fid.some((fid) => fid > 0x7fffffff)) return;
        try {
          const chat: string[] = [];
          const tools: string[] = [];
          c.fid.forEach((fid, i) => {
            if (fid < 0) chat.push(rows[i].path);
            if (c.tools[i] !== 1) tools.push(rows[i].path);
          });
          const uncovered = tools.length <= MAX_UNCOVERED ? { chat, tools } : null;
          const head: Head = { v: LAYOUT, gen: c.gen, rows: stamp, n: rows.length, caughtUp: c.caughtUp, uncovered };
          other.put(KEY, { out: encode(head, c.fid, c.tools), err: "" });
        } catch {
          // A cache: not kept this time.
        }
      },
    };
  };
  return {
    read(db) {
      if (fresh) return undefined;
      const c = decode(other.get(KEY), rows.length, stamp);
      return c && stillCovers(db, c) ? asKept(c, rows) : undefined;
    },
    workOut,
    keep(db) {
      try {
        workOut(db)?.keep();
      } catch {
        // A cache: not kept this time.
      }
    },
  };
}

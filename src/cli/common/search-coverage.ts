import { coverageOf, stillCovers, type Coverage, type KnownCoverage } from "../../index/index-search.js";
import type { IndexDb } from "../../index/index-db.js";
import type { SearchTarget } from "../../search/fulltext.js";
import { rowFinder } from "../../search/row-finder.js";
import type { Answer } from "./answer-cache.js";

/*
 * What the index covered of a store's kept search rows (index-search.ts, Coverage), kept
 * beside them for the same store: a relaunch then neither reads ten thousand text states
 * out of SQLite nor looks each row's path up in them, while the index's text generation
 * says nothing changed since.
 */

/** Written into the value: another layout is not read. */
const LAYOUT = 3;

/** At most this many rows the index does not cover are listed with a coverage (coversAll reads them). */
const MAX_UNCOVERED = 64;

/** A Coverage as kept: with the paths of the rows it does not cover, when few (else null). */
type KeptValue = Coverage & {
  v: number;
  /** The rows whose conversation the index does not cover; and those whose tool texts it does not either. */
  uncovered: { chat: string[]; tools: string[] } | null;
};
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
  /** Keeps what the index covers now (after a search that read its text states). */
  keep(db: IndexDb): void;
}

interface Other {
  get(key: string): Answer | undefined;
  put(key: string, a: Answer): void;
}

function decode(a: Answer | undefined, n: number): KeptValue | undefined {
  if (!a) return undefined;
  try {
    const c = JSON.parse(Buffer.from(a.out).toString("utf8")) as KeptValue;
    const ok =
      c.v === LAYOUT &&
      typeof c.gen === "string" &&
      Array.isArray(c.fid) &&
      Array.isArray(c.tools) &&
      c.fid.length === n &&
      c.tools.length === n &&
      Array.isArray(c.caughtUp) &&
      (c.uncovered === null || (Array.isArray(c.uncovered?.chat) && Array.isArray(c.uncovered?.tools)));
    return ok ? c : undefined;
  } catch {
    return undefined;
  }
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
  const c = decode(other.get(KEY), rows);
  if (!c?.uncovered || c.caughtUp[tools ? 1 : 0] !== 1 || !stillCovers(db, c)) return undefined;
  const paths = tools ? c.uncovered.tools : c.uncovered.chat;
  return paths.every((p) => typeof p === "string") ? paths : undefined;
}

/** The coverage answer of these rows (as decoded from the kept rows: the same objects, in the same order). */
export function coverageAnswer(other: Other, rows: readonly SearchTarget[]): CoverageAnswer {
  return {
    read(db) {
      const c = decode(other.get(KEY), rows.length);
      if (!c || !stillCovers(db, c)) return undefined;
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
    },
    keep(db) {
      try {
        const c = coverageOf(db, rows);
        if (!c) return;
        const chat: string[] = [];
        const tools: string[] = [];
        c.fid.forEach((fid, i) => {
          if (fid < 0) chat.push(rows[i].path);
          if (c.tools[i] !== 1) tools.push(rows[i].path);
        });
        const uncovered = tools.length <= MAX_UNCOVERED ? { chat, tools } : null;
        const value: KeptValue = { v: LAYOUT, ...c, uncovered };
        other.put(KEY, { out: Buffer.from(JSON.stringify(value)), err: "" });
      } catch {
        // A cache: not kept this time.
      }
    },
  };
}

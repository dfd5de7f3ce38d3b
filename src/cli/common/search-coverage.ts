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
const LAYOUT = 2;
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

function decode(a: Answer | undefined, n: number): Coverage | undefined {
  if (!a) return undefined;
  try {
    const c = JSON.parse(Buffer.from(a.out).toString("latin1")) as Coverage & { v?: number };
    const ok =
      c.v === LAYOUT &&
      typeof c.gen === "string" &&
      Array.isArray(c.fid) &&
      Array.isArray(c.tools) &&
      c.fid.length === n &&
      c.tools.length === n &&
      Array.isArray(c.caughtUp);
    return ok ? c : undefined;
  } catch {
    return undefined;
  }
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
        if (c) other.put(KEY, { out: Buffer.from(JSON.stringify({ v: LAYOUT, ...c })), err: "" });
      } catch {
        // A cache: not kept this time.
      }
    },
  };
}

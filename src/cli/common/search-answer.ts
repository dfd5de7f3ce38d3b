import { createHash } from "node:crypto";
import type { Query } from "../../search/query.js";
import type { Answer } from "./answer-cache.js";

/*
 * A `search --json` answer kept for the next same question on the same store (answer-cache.ts:
 * a store with the same fingerprint gives the same answer byte for byte, and the answer
 * with the index is the one without it). A script or an fzf reload that asks again is
 * answered from a file. Kept in one of a few slots chosen by the question, so asking many
 * questions keeps a few answers, not one file per question; the question's id, written
 * first, says whose answer a slot holds.
 */

/** How many answers are kept per store. */
const SLOTS = 16;

export interface SearchQuestion {
  text: string;
  /** "" for --all, else the folder whose sessions are searched. */
  scope: string;
  limit: number;
  tools: boolean;
}

export interface SearchAnswerKey {
  /** The answer cache's key: one of SLOTS. */
  slot: string;
  /** The question, as written before its answer. */
  id: string;
}

/**
 * Where the answer to a question is kept, or undefined when it cannot be: a query that
 * depends on the clock (`today`, `7d`) asks something else a moment later. Dates named by
 * the day count as the instants they resolved to (local midnight: a changed time zone is
 * another question).
 */
export function searchAnswerKey(q: SearchQuestion, query: Query): SearchAnswerKey | undefined {
  if (query.relative || query.error) return undefined;
  const dates = query.terms.flatMap((t) => (t.kind === "date" ? [[t.from ?? null, t.until ?? null]] : []));
  const id = createHash("sha256")
    .update(JSON.stringify(["search --json", q.text, q.scope, q.limit, q.tools, dates]))
    .digest("hex");
  return { slot: `search answer ${parseInt(id.slice(0, 8), 16) % SLOTS}`, id };
}

/** The answer as kept: the question's id on the first line, then what was printed. */
export function encodeSearchAnswer(key: SearchAnswerKey, printed: string): Answer {
  return { out: Buffer.from(`${key.id}\n${printed}`), err: "" };
}

/** What was printed for this very question, or undefined (the slot holds another's answer, or nothing sound). */
export function decodeSearchAnswer(a: Answer, key: SearchAnswerKey): Uint8Array | undefined {
  const eol = a.out.indexOf(0x0a);
  if (eol !== key.id.length) return undefined;
  return Buffer.from(a.out.buffer, a.out.byteOffset, eol).toString("latin1") === key.id
    ? a.out.subarray(eol + 1)
    : undefined;
}

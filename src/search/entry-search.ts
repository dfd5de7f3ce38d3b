import type { SessionIndex } from "../store/session-index.js";
import { describeEntry } from "../model/text.js";
import type { EntryNode, SessionEntry } from "../model/types.js";
import { readLines } from "../store/line-reader.js";

/** Whitespace-separated terms, lower-cased; empty when the query is blank. */
export function entryQueryTerms(query: string): string[] {
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t.length > 0);
}

/**
 * A term that appears literally in a JSON line whenever it appears in a decoded string:
 * printable ASCII without the characters JSON escapes (or may escape: `"`, `\`, `/`).
 * Such terms can reject a line before it is parsed.
 */
const LITERAL = /^[\x20-\x7e]+$/;
function literalInJson(term: string): boolean {
  return LITERAL.test(term) && !/["\\/]/.test(term);
}

/** The text an entry is searched by: its full text (thinking excluded) and its tool-call lines. */
export function searchableText(entry: SessionEntry): string {
  const d = describeEntry(entry);
  return d.toolCalls.length ? `${d.text}\n${d.toolCalls.join("\n")}` : d.text;
}

function abortError(): Error {
  const e = new Error("search aborted");
  e.name = "AbortError";
  return e;
}

/**
 * Searches every entry of the index by its FULL text, streaming the file (memory is one
 * chunk plus the longest line). Every term must match, case-insensitively. Returns the
 * ids of matching entries in file order. Lines not in the index (the header, damaged
 * lines, earlier copies of a repeated id) are skipped. Rejects with an AbortError when
 * `signal` aborts.
 */
export async function searchEntries(
  path: string,
  index: SessionIndex,
  query: string,
  signal?: AbortSignal,
): Promise<string[]> {
  const terms = entryQueryTerms(query);
  if (terms.length === 0) return [];
  if (signal?.aborted) throw abortError();
  const byOffset = new Map<number, EntryNode>();
  for (const n of index.nodes) byOffset.set(n.offset, n);
  const quick = terms.filter(literalInJson);
  const hits: string[] = [];
  let aborted = false;
  await readLines(path, (ref) => {
    // Checking the signal every line is cheap; it is only set between chunks anyway.
    if (signal?.aborted) {
      aborted = true;
      return false;
    }
    const node = byOffset.get(ref.offset);
    if (!node || ref.end - ref.start !== node.length) return true;
    const raw = ref.buf.toString("utf8", ref.start, ref.end);
    if (quick.length) {
      const lower = raw.toLowerCase();
      for (const t of quick) if (!lower.includes(t)) return true;
    }
    let entry: SessionEntry;
    try {
      entry = JSON.parse(raw) as SessionEntry;
    } catch {
      return true;
    }
    const text = searchableText(entry).toLowerCase();
    for (const t of terms) if (!text.includes(t)) return true;
    hits.push(node.id);
    return true;
  });
  if (aborted || signal?.aborted) throw abortError();
  return hits;
}

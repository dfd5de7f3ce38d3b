import type { Lineage, SessionSummary } from "./types.js";

/*
 * A summary as `list --json` prints it, and the pieces of that text the persistent index
 * keeps (src/index/summary-cache.ts) so a relaunch writes them out instead of making them
 * again. Everything but the lineage is the summary's own; the lineage depends on the other
 * sessions of the store, so it is left out of the kept pieces and put between them.
 */

const iso = (d: Date) => (Number.isNaN(d.getTime()) ? null : d.toISOString());

/** A summary as `list --json` prints it: pi's SessionInfo fields first, dates as ISO strings. */
export function summaryToJson(s: SessionSummary): Record<string, unknown> {
  return {
    path: s.path,
    id: s.id,
    cwd: s.cwd,
    name: s.name ?? null,
    parentSessionPath: s.parentSessionPath ?? null,
    created: iso(s.created),
    modified: iso(s.modified),
    messageCount: s.messageCount,
    firstMessage: s.firstMessage,
    bytes: s.bytes,
    entryCount: s.entryCount,
    leafCount: s.leafCount,
    labelCount: s.labelCount,
    models: s.models,
    tokens: s.tokens,
    cost: s.cost,
    version: s.version,
    lineage: s.lineage,
    warnings: s.warnings,
  };
}

/**
 * What JSON leaves raw and a terminal acts on when the output is printed to a screen: DEL,
 * the C1 controls (some terminals take U+009B as CSI) and the bidi overrides and isolates
 * (they reorder what is shown).
 */
export const TERMINAL_ACTIVE = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** JSON.stringify, with TERMINAL_ACTIVE's characters escaped too (the same value for a JSON reader). */
export function safeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    TERMINAL_ACTIVE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** safeJson of `value` as an element of an array printed by safeJson: every line two spaces in. */
export function jsonElement(value: unknown): string {
  return "  " + safeJson(value).replace(/\n/g, "\n  ");
}

/** A summary's element of `list --json` without its lineage: the text before it and the text after it. */
export type ListPieces = readonly [head: string, tail: string];

// The element's own keys are two spaces further in than the element: four. Strings hold no
// raw newline (JSON escapes it), so these are the keys' own lines.
const LINEAGE_KEY = '\n    "lineage": ';
const AFTER_LINEAGE = ',\n    "warnings": ';

/** The pieces of a summary's `list --json` element around its lineage (undefined if it has no such place). */
export function listPieces(s: SessionSummary): ListPieces | undefined {
  const text = jsonElement(summaryToJson(s));
  const at = text.indexOf(LINEAGE_KEY);
  const end = at < 0 ? -1 : text.indexOf(AFTER_LINEAGE, at);
  if (end < 0) return undefined;
  return [text.slice(0, at + LINEAGE_KEY.length), text.slice(end)];
}

const lineageTexts = new Map<string, string>();

/** A lineage as it stands in a `list --json` element (nested two deep: six spaces in). */
export function lineageInElement(l: Lineage): string {
  // { status: "none" } and { status: "missing" } are most of a store: made once.
  const plain = l.status !== "resolved" && Object.keys(l).length === 1;
  let t = plain ? lineageTexts.get(l.status) : undefined;
  if (t === undefined) {
    t = safeJson(l).replace(/\n/g, "\n    ");
    if (plain) lineageTexts.set(l.status, t);
  }
  return t;
}

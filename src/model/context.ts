import type { SessionIndex } from "./index-types.js";
import { pathToRoot } from "./tree.js";
import type { EntryNode, UsageNumbers } from "./types.js";

/** What a context edit did to one entry on the branch. */
export interface AppliedEdit {
  /** The context_edit entry in effect (the latest on the branch for that target). */
  editId: string;
  kind: "omit" | "replace";
  /** The replacement's text, for "replace". */
  text?: string;
}

export interface ContextView {
  /** pi's buildContextEntries: the entries that feed the model, latest compaction first. */
  entryIds: string[];
  /** The roles of the messages the model sees, in order (after compaction and edits). */
  roles: string[];
  /** Target id → the edit in effect on this branch. */
  edits: Map<string, AppliedEdit>;
}

/**
 * The model's context at `leafId` as pi 1.5.2 builds it (buildSessionProjection): the branch,
 * cut at the latest compaction (which stands first, then the kept entries from its
 * firstKeptEntryId — system messages there excepted — then everything after it), with each
 * entry's latest `context_edit` on that list applied: `omit` drops it, `replace` swaps its content.
 */
export function buildContext(index: SessionIndex, leafId: string | null = index.leafId): ContextView {
  const path = pathToRoot(index.tree, leafId).map((id) => index.byId.get(id)!);
  let compactionAt = -1;
  path.forEach((n, i) => n.type === "compaction" && (compactionAt = i));
  let entries: EntryNode[] = path;
  if (compactionAt >= 0) {
    const c = path[compactionAt];
    entries = [c];
    let kept = false;
    for (let i = 0; i < compactionAt; i++) {
      const n = path[i];
      if (n.id === c.firstKeptEntryId) kept = true;
      if (kept && !(n.type === "message" && n.role === "system")) entries.push(n);
    }
    entries.push(...path.slice(compactionAt + 1));
  }
  const edits = new Map<string, AppliedEdit>();
  for (const n of entries) {
    if (n.type === "context_edit" && n.targetId !== undefined)
      edits.set(n.targetId, {
        editId: n.id,
        kind: n.edit ?? "replace",
        ...(n.edit === "replace" ? { text: n.editText ?? "" } : {}),
      });
  }
  const roles: string[] = [];
  entries.forEach((n, i) => {
    if (edits.get(n.id)?.kind === "omit") return;
    // An older compaction kept inside the newest one's range contributes nothing.
    if (n.type === "compaction" && i > 0) return;
    roles.push(...contextRoles(n));
  });
  return { entryIds: entries.map((n) => n.id), roles, edits };
}

/** pi's sessionEntryToContextMessages, by role only. */
function contextRoles(n: EntryNode): string[] {
  switch (n.type) {
    case "message":
      return [n.role ?? "message"];
    case "custom_message":
      return ["custom"];
    case "branch_summary":
      return n.text ? ["branchSummary"] : [];
    case "compaction":
      return n.systemMessage ? ["system", "compactionSummary"] : ["compactionSummary"];
    default:
      return [];
  }
}

export interface UsageTotals {
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
  cost: number;
  /** Figures left out as out of range (see src/model/usage-figure.ts); absent when none. */
  ignored?: number;
}

/** pi's /session totals over every entry of the file (see SummaryBuilder for the same rule while listing). */
export function usageTotals(index: SessionIndex): UsageTotals {
  const t: UsageNumbers = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
  let ignored = 0;
  for (const n of index.nodes) {
    const u = n.usage;
    if (!u) continue;
    ignored += u.ignored ?? 0;
    t.input += u.input;
    t.output += u.output;
    t.cacheRead += u.cacheRead;
    t.cacheWrite += u.cacheWrite;
    t.cost += u.cost;
  }
  return {
    tokens: {
      input: t.input,
      output: t.output,
      cacheRead: t.cacheRead,
      cacheWrite: t.cacheWrite,
      total: t.input + t.output + t.cacheRead + t.cacheWrite,
    },
    cost: t.cost,
    ...(ignored ? { ignored } : {}),
  };
}

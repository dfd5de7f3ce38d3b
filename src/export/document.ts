import { readEntriesSync } from "../store/read-entries.js";
import type { SessionIndex } from "../store/session-index.js";
import { buildBlocks, type Block } from "../transcript/blocks.js";
import { allBranches, branchThrough } from "./branch.js";

/** What the Markdown and HTML exports write: the session's facts and one section per branch. */
export interface ExportDocument {
  title: string;
  sessionId: string;
  cwd: string;
  created?: string;
  path: string;
  /** "active branch", "branch through 3c81aa02", "all 3 branches". */
  scope: string;
  sections: ExportSection[];
}

export interface ExportSection {
  /** Set when several branches are written: "Branch 2 of 3". */
  heading?: string;
  /** Where the branch leaves the one before it, and whether pi continues it. */
  note?: string;
  blocks: Block[];
}

export interface ExportScope {
  /** The branch through this entry (default: the active branch). */
  branch?: string;
  allBranches?: boolean;
}

function firstUserText(blocks: readonly Block[]): string | undefined {
  for (const b of blocks) if (b.kind === "user" && b.text.trim()) return b.text;
  return undefined;
}

/** A title of one line: the session's name, else its first user message (cut), else its id. */
function titleOf(index: SessionIndex, blocks: readonly Block[]): string {
  const raw = index.name ?? firstUserText(blocks) ?? `pi session ${index.header.id}`;
  const line = raw.replace(/\s+/g, " ").trim();
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

/** Reads the entries the scope needs (and only those) and turns them into sections. */
export function exportDocument(index: SessionIndex, scope: ExportScope = {}): ExportDocument {
  const h = index.header;
  const base = {
    sessionId: h.id,
    cwd: typeof h.cwd === "string" ? h.cwd : "",
    created: typeof h.timestamp === "string" ? h.timestamp : undefined,
    path: index.path,
  };
  if (!scope.allBranches) {
    const ids = branchThrough(index, scope.branch);
    const blocks = buildBlocks(readEntriesSync(index, ids));
    return {
      ...base,
      title: titleOf(index, blocks),
      scope: scope.branch ? `branch through entry ${scope.branch}` : "active branch",
      sections: [{ blocks }],
    };
  }
  const branches = allBranches(index);
  const sections: ExportSection[] = [];
  const short = (id: string) => id.slice(0, 8);
  // The entry a branch leaves from, as the tree shows it: `3c81aa02 ("Why does checkout…")`.
  const at = (id: string) => {
    const text = index.byId.get(id)?.text?.replace(/\s+/g, " ").trim();
    return text ? `${short(id)} ("${text.length > 60 ? `${text.slice(0, 59)}…` : text}")` : short(id);
  };
  branches.forEach((b, i) => {
    const blocks = buildBlocks(readEntriesSync(index, b.own));
    const notes = [
      b.active ? "the active branch (pi continues here)" : undefined,
      b.ownFrom > 0 && b.from ? `branches off after entry ${at(b.from)}` : i > 0 ? "a separate root" : undefined,
      `ends at entry ${short(b.leafId)}`,
    ].filter(Boolean);
    sections.push({ heading: `Branch ${i + 1} of ${branches.length}`, note: notes.join("; "), blocks });
  });
  const all = sections.flatMap((s) => s.blocks);
  return {
    ...base,
    title: titleOf(index, all),
    scope: `all ${branches.length} branch${branches.length === 1 ? "" : "es"}`,
    sections,
  };
}

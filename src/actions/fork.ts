import { closeSync, fsyncSync, linkSync, openSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { v7 as uuidv7 } from "uuid";
import { loadSessionIndex, type SessionIndex } from "../model/session-index.js";
import { pathToRoot } from "../model/tree.js";
import type { EntryNode } from "../model/types.js";
import { readRange } from "../store/read-range.js";
import { AppendRefused, freshId } from "./append-entry.js";

export interface ForkResult {
  path: string;
  id: string;
  /** Entries copied (labels excluded) and labels re-created. */
  entries: number;
  labels: number;
}

function readLine(fd: number, node: EntryNode): string {
  return readRange(fd, node.offset, node.length).toString("utf8").replace(/\r$/, "");
}

/** The line to write for a kept entry: the original bytes unless ids or migration change it. */
function keptLine(raw: string, node: EntryNode, parentId: string | null, index: SessionIndex, firstKept?: string): string {
  if (index.version >= 3 && parentId === node.parentId && firstKept === undefined) return raw;
  const e = JSON.parse(raw) as Record<string, unknown> & { message?: { role?: string } };
  e.id = node.id;
  e.parentId = parentId;
  if (firstKept !== undefined) e.firstKeptEntryId = firstKept;
  if (e.type === "message" && e.message?.role === "hookMessage") e.message.role = "custom";
  if ("firstKeptEntryIndex" in e) delete e.firstKeptEntryIndex;
  return JSON.stringify(e);
}

/** Writes `content` to `path` only if nothing is there: temp file, fsync, hard link, unlink. */
export function writeNew(path: string, content: string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const fd = openSync(tmp, "wx", 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
  } finally {
    unlinkSync(tmp);
  }
}

/**
 * A new session that ends at `targetId`, as pi's /fork (createBranchedSession) writes it:
 * new header (new id, same cwd, parentSession = the source path), the path root → target
 * without label entries (children of a dropped label re-linked), then the labels that
 * resolve onto that path re-created with their original timestamps. Same folder; the
 * source is only read.
 */
export async function forkAtEntry(sourcePath: string, targetId: string, now = new Date()): Promise<ForkResult> {
  const source = resolve(sourcePath);
  const index = await loadSessionIndex(source, { skim: true });
  if (!index.byId.has(targetId)) throw new AppendRefused(`no entry ${targetId} in ${source}`);
  const path = pathToRoot(index.tree, targetId).map((id) => index.byId.get(id)!);
  const kept = path.filter((n) => n.type !== "label");
  if (!kept.some((n) => n.role === "user" || n.role === "assistant")) {
    // pi 1.5.2 writes a session file once it holds a user or assistant message (the prompt
    // is kept even if no reply came); before that it writes nothing.
    throw new AppendRefused("nothing to fork yet: the conversation up to this entry has no message");
  }
  // Label entries are dropped: an entry after one is re-linked, and a compaction whose kept
  // part started at one now starts at the entry that followed it (pi's createBranchedSession).
  const replacement = new Map<string, string>();
  let pendingLabels: string[] = [];
  for (const n of path) {
    if (n.type === "label") pendingLabels.push(n.id);
    else {
      for (const l of pendingLabels) replacement.set(l, n.id);
      pendingLabels = [];
    }
  }
  const id = uuidv7();
  const timestamp = now.toISOString();
  // pi writes the cwd resolved (`/a/./b/` becomes `/a/b`).
  const cwd = typeof index.header.cwd === "string" && index.header.cwd ? resolve(index.header.cwd) : "";
  const header = { type: "session", version: 3, id, timestamp, cwd, parentSession: source };
  const lines = [JSON.stringify(header)];
  const fd = openSync(source, "r");
  try {
    let prev: string | null = null;
    for (const node of kept) {
      const fk = node.type === "compaction" && node.firstKeptEntryId !== node.id ? replacement.get(node.firstKeptEntryId ?? "") : undefined;
      lines.push(keptLine(readLine(fd, node), node, prev, index, fk));
      prev = node.id;
    }
  } finally {
    closeSync(fd);
  }
  const used = new Set(kept.map((n) => n.id));
  let parentId: string | null = kept[kept.length - 1].id;
  let labels = 0;
  for (const n of kept) {
    const label = index.labels.get(n.id);
    if (!label) continue;
    const labelId = freshId(used);
    used.add(labelId);
    lines.push(JSON.stringify({ type: "label", id: labelId, parentId, timestamp: index.labelTimestamps.get(n.id) ?? timestamp, targetId: n.id, label }));
    parentId = labelId;
    labels++;
  }
  const file = join(dirname(source), `${timestamp.replace(/[:.]/g, "-")}_${id}.jsonl`);
  writeNew(file, `${lines.join("\n")}\n`);
  return { path: file, id, entries: kept.length, labels };
}

import { isBadFigure, usageFigure } from "../model/usage-figure.js";
import { open, stat } from "node:fs/promises";
import { fsPath } from "./fs-path.js";
import { lineLength, readLines, type LineRef } from "./line-reader.js";
import { BIG_LINE, LIST_SKIM_THRESHOLD } from "./parse-line.js";
import { parseBounded, SHOWN } from "./bounded-parse.js";
import { SessionReader, type EntrySink } from "./session-reader.js";
import { applyLabel, nameFrom } from "../model/resolve.js";
import { entryShortText, messageText, toolCallLine } from "../model/text.js";
import { buildTree } from "../model/tree.js";
import type { EntryNode, SessionEntry, UsageNumbers } from "../model/types.js";

export type { SessionIndex } from "../model/index-types.js";
import type { SessionIndex } from "../model/index-types.js";

export class NotASessionError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path} is not a pi session: ${reason}`);
    this.name = "NotASessionError";
  }
}

class IndexSink implements EntrySink {
  nodes: EntryNode[] = [];
  byId = new Map<string, EntryNode>();
  labels = new Map<string, string>();
  labelTimestamps = new Map<string, string>();
  name: string | undefined;
  leafId: string | null = null;

  entry(entry: SessionEntry, ref: LineRef, skimmed: boolean): void {
    const node = toNode(entry, ref, skimmed);
    const prev = this.byId.get(entry.id);
    if (prev) this.nodes[this.nodes.indexOf(prev)] = node;
    else this.nodes.push(node);
    this.byId.set(entry.id, node);
    this.leafId = entry.id;
    if (entry.type === "label") applyLabel(this.labels, entry, this.labelTimestamps);
    else if (entry.type === "session_info") this.name = nameFrom(entry);
  }
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

const num = (v: unknown): number => usageFigure(v) ?? 0;

/** A usage object's numbers, as pi's addUsageToTotals reads them (out-of-range figures absent, and counted). */
export function usageNumbers(u: unknown): UsageNumbers | undefined {
  if (!u || typeof u !== "object") return undefined;
  const r = u as Record<string, unknown>;
  const c = r.cost && typeof r.cost === "object" ? (r.cost as Record<string, unknown>) : {};
  const raw = [r.input, r.output, r.cacheRead, r.cacheWrite, c.total];
  const ignored = raw.filter(isBadFigure).length;
  return {
    input: num(r.input),
    output: num(r.output),
    cacheRead: num(r.cacheRead),
    cacheWrite: num(r.cacheWrite),
    cost: num(c.total),
    ...(ignored ? { ignored } : {}),
  };
}

/** The light node of an entry: ids, where its line is, and what a tree row shows. */
export function toNode(entry: SessionEntry, ref: LineRef, skimmed: boolean): EntryNode {
  const m = entry.message;
  const node: EntryNode = {
    id: entry.id,
    parentId: entry.parentId,
    type: entry.type,
    timestamp: entry.timestamp,
    line: ref.line,
    offset: ref.offset,
    length: ref.end - ref.start,
  };
  if (!skimmed) node.text = entryShortText(entry);
  if (entry.type === "message" && m && typeof m === "object") {
    node.role = str(m.role);
    if (node.role === "assistant") {
      const calls: [string, string][] = [];
      let hasText = false;
      if (typeof m.content === "string") hasText = m.content.trim().length > 0;
      else if (Array.isArray(m.content)) {
        for (const b of m.content as Record<string, unknown>[]) {
          if (!b || typeof b !== "object") continue;
          if (b.type === "text" && typeof b.text === "string" && b.text.trim()) hasText = true;
          else if (b.type === "toolCall") calls.push([String(b.id ?? ""), toolCallLine(b.name, b.arguments)]);
        }
      }
      node.hasText = hasText;
      if (calls.length) node.toolCalls = calls;
      node.stopReason = str(m.stopReason);
      node.model = str(m.model);
      node.usage = usageNumbers(m.usage);
    } else if (node.role === "toolResult") {
      node.toolCallId = str(m.toolCallId);
      node.toolName = str(m.toolName);
      node.usage = usageNumbers(m.usage);
    }
  } else if (entry.type === "custom" || entry.type === "custom_message") {
    node.customType = str(entry.customType);
  } else if (entry.type === "compaction") {
    node.tokensBefore = typeof entry.tokensBefore === "number" ? entry.tokensBefore : undefined;
    node.usage = usageNumbers(entry.usage);
    node.firstKeptEntryId = str(entry.firstKeptEntryId);
    if (entry.systemMessage && typeof entry.systemMessage === "object") node.systemMessage = true;
  } else if (entry.type === "branch_summary") {
    node.usage = usageNumbers(entry.usage);
  } else if (entry.type === "usage") {
    node.usage = usageNumbers(entry.usage);
    node.usageKind = str(entry.kind);
    node.model = str(entry.model);
  } else if (entry.type === "context_edit") {
    node.targetId = str(entry.targetId);
    const r = entry.replacement as { content?: unknown } | null | undefined;
    node.edit = r === null ? "omit" : "replace";
    // Kept whole (up to the preview's limit): the tree shows it in place of the target's text.
    if (r && typeof r === "object") node.editText = messageText(r.content).slice(0, 100_000);
  } else if (entry.type === "label") {
    node.targetId = str(entry.targetId);
  } else if (entry.type === "model_change") {
    node.model = str(entry.modelId);
  }
  return node;
}

/** Bigger reads than the scanner's: one session read in full waits on fewer round trips. */
const CHUNK = 4 << 20;

/**
 * Reads a session file into a light index: one node per entry with its first 200
 * characters and where its line lies, so the full entry can be read back on demand.
 * `skim` leaves bulky tool outputs unparsed (their text is then undefined).
 */
export async function loadSessionIndex(path: string, options: { skim?: boolean } = {}): Promise<SessionIndex> {
  const st = await stat(fsPath(path));
  const sink = new IndexSink();
  // Tree rows show a tool result by the call it answers, and the preview reads entries
  // by offset, so a skimming index needs no tool output bodies (same threshold as listing).
  const reader = new SessionReader(sink, options.skim ?? false, LIST_SKIM_THRESHOLD);
  let tailStart = 0;
  const res = await readLines(
    path,
    (ref) => {
      if (ref.terminated) tailStart = ref.offset + lineLength(ref) + 1;
      reader.push(ref);
      return !reader.done;
    },
    { chunkSize: CHUNK, readAhead: true },
  );
  if (!reader.header) {
    throw new NotASessionError(path, reader.rejected ?? (st.size === 0 ? "the file is empty" : "no session header"));
  }
  return {
    path,
    header: reader.header,
    version: reader.version,
    nodes: sink.nodes,
    byId: sink.byId,
    tree: buildTree(sink.nodes),
    leafId: sink.leafId,
    labels: sink.labels,
    labelTimestamps: sink.labelTimestamps,
    name: sink.name,
    warnings: reader.warnings,
    bytes: res.bytesRead,
    mtimeMs: st.mtimeMs,
    endsWithNewline: res.endsWithNewline,
    tailStart,
    ino: st.ino,
    ctimeMs: st.ctimeMs,
  };
}

/**
 * Reads one entry from its line, migrated as the index saw it: in full, or for a line over
 * BIG_LINE (a preview or a tree row shows its start) as far as bounds allow.
 */
export async function readEntry(path: string, node: EntryNode): Promise<SessionEntry> {
  const fh = await open(fsPath(path), "r");
  try {
    const buf = Buffer.allocUnsafe(node.length);
    const { bytesRead } = await fh.read(buf, 0, node.length, node.offset);
    const entry = (
      bytesRead > BIG_LINE ? parseBounded(buf, 0, bytesRead, SHOWN) : JSON.parse(buf.toString("utf8", 0, bytesRead))
    ) as SessionEntry;
    entry.id = node.id;
    entry.parentId = node.parentId;
    if (entry.type === "message" && entry.message?.role === "hookMessage") entry.message.role = "custom";
    return entry;
  } finally {
    await fh.close();
  }
}

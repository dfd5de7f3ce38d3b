import { readEntriesSync } from "../store/read-entries.js";
import type { SessionIndex } from "../store/session-index.js";
import type { SessionEntry } from "../model/types.js";
import { buildBlocks, toolOutputOf, type Block, type BlockKind, type BlockList, type ToolOutput } from "./blocks.js";

/*
 * A branch's blocks without reading the branch. Which blocks there are comes from the
 * index's light nodes (role, tool calls, which call a result answers); an entry is read
 * from its line only when its block is asked for, and a bulky tool result only when its
 * output is shown. So a 50,000-entry session opens at its end having read one screenful
 * of entries. A block's content comes from the same buildBlocks the exports use.
 */

type Item =
  /** A block made from one entry (whether it shows anything is decided when it is read). */
  | { kind: Exclude<BlockKind, "tool">; id: string; inTurn?: boolean }
  /** Call `call` of assistant entry `id`, and the entry holding its result. */
  | { kind: "tool"; id: string; call: number; title: string; resultId?: string; failedTurn: boolean }
  /** A result with no call on the branch, or a user's `!` command: the entry is its own block. */
  | { kind: "tool"; id: string; call: -1; title?: string; resultId: string; failedTurn: false };

/** Results up to this many bytes are read with their block (to show their size in lines and errors). */
const READ_WITH_BLOCK = 16 * 1024;
/** The length entryShortText cuts a node's text to. */
const NODE_TEXT_MAX = 200;
/** Blocks read together: a screen needs neighbours, and one open file serves them all. */
const CHUNK = 32;

/** A block standing for entries that could not be read back: why, and what to do. */
function unreadable(entryId: string, err: unknown): Block {
  const why = err instanceof Error ? err.message : String(err);
  return {
    kind: "custom",
    entryId,
    customType: "pi-sessions",
    text: `⚠ cannot show this part: ${why}. Close the reader (q) and open it again to read the session anew.`,
  };
}

/** A bulky tool output read when shown; a file that changed since gives a note instead of an error. */
function readOutput(index: SessionIndex, resultId: string): ToolOutput & { unreadable?: true } {
  try {
    return toolOutputOf(readEntriesSync(index, [resultId], { bounded: true })[0].message ?? {});
  } catch (err) {
    return {
      output: `⚠ cannot read this output: ${err instanceof Error ? err.message : String(err)}`,
      isError: true,
      images: 0,
      unreadable: true,
    };
  }
}

/** The block list of the entries `ids` (root → leaf) of an indexed session, read as needed. */
export function lazyBlocks(index: SessionIndex, ids: readonly string[]): BlockList {
  const items: Item[] = [];
  const pending = new Map<string, Extract<Item, { kind: "tool" }>>();
  for (const id of ids) {
    const n = index.byId.get(id);
    if (!n) continue;
    switch (n.type) {
      case "message":
        switch (n.role) {
          case "user":
            if (n.text !== "") items.push({ kind: "user", id });
            break;
          case "assistant": {
            const last = items.at(-1)?.kind;
            items.push({ kind: "assistant", id, inTurn: last === "assistant" || last === "tool" });
            const failedTurn = n.stopReason === "error" || n.stopReason === "aborted";
            (n.toolCalls ?? []).forEach(([callId, title], call) => {
              const item: Item = { kind: "tool", id, call, title, failedTurn };
              items.push(item);
              if (!failedTurn && callId) pending.set(callId, item);
            });
            break;
          }
          case "toolResult": {
            const waiting = n.toolCallId === undefined ? undefined : pending.get(n.toolCallId);
            if (waiting) {
              pending.delete(n.toolCallId!);
              waiting.resultId = id;
            } else
              items.push({ kind: "tool", id, call: -1, title: n.toolName ?? "tool", resultId: id, failedTurn: false });
            break;
          }
          case "bashExecution":
            // The node holds the command's first 200 characters (none when the line was
            // skimmed); a longer one is read with the block.
            items.push({
              kind: "tool",
              id,
              call: -1,
              title: n.text !== undefined && n.text.length < NODE_TEXT_MAX ? `$ ${n.text}` : undefined,
              resultId: id,
              failedTurn: false,
            });
            break;
          case "custom":
            items.push({ kind: "custom", id });
            break;
        }
        break;
      case "compaction":
        items.push({ kind: "compaction", id });
        break;
      case "branch_summary":
        if (n.text) items.push({ kind: "branch_summary", id });
        break;
      case "custom_message":
        items.push({ kind: "custom", id });
        break;
    }
  }

  const made = new Map<number, Block | null>();

  /** The entries `make` reads for an item up front (a bulky result is left for later). */
  const needs = (item: Item, into: Set<string>) => {
    if (item.kind !== "tool" || item.failedTurn) into.add(item.id);
    else if (
      item.resultId !== undefined &&
      (item.title === undefined || index.byId.get(item.resultId)!.length <= READ_WITH_BLOCK)
    )
      into.add(item.resultId);
  };

  const make = (item: Item, read: (id: string) => SessionEntry): Block | null => {
    if (item.kind !== "tool") {
      const first = buildBlocks([read(item.id)], { inTurn: item.inTurn })[0];
      // A turn of tool calls alone within a turn has no assistant block; a custom message may be hidden.
      return first && first.kind === item.kind ? first : null;
    }
    if (item.failedTurn) return buildBlocks([read(item.id)]).filter((b) => b.kind === "tool")[item.call] ?? null;
    const base = { kind: "tool" as const, entryId: item.id, title: item.title ?? "", isError: false, images: 0 };
    if (item.resultId === undefined) return base;
    const resultId = item.resultId;
    const result = index.byId.get(resultId)!;
    if (item.title === undefined || result.length <= READ_WITH_BLOCK) {
      const m = read(resultId).message ?? {};
      const title = item.title ?? `$ ${typeof m.command === "string" ? m.command : ""}`;
      return { ...base, title, resultEntryId: resultId, ...toolOutputOf(m) };
    }
    let loaded: ToolOutput | undefined;
    // Kept once read; a failed read is not kept, so a later look reads again.
    const load = () => {
      if (loaded) return loaded;
      const out = readOutput(index, resultId);
      if (!out.unreadable) loaded = out;
      return out;
    };
    return { ...base, resultEntryId: resultId, bytes: result.length, load };
  };

  /**
   * Reads the chunk of items around `i` through one open file: windows and searches go
   * block after block. A chunk that cannot be read is not kept: the note stands in for
   * it this time, and a later look reads again.
   */
  const makeChunk = (i: number): Block | null | undefined => {
    const from = i - (i % CHUNK);
    const to = Math.min(items.length, from + CHUNK);
    const ids = new Set<string>();
    for (let k = from; k < to; k++) if (!made.has(k)) needs(items[k], ids);
    const list = [...ids];
    let entries: SessionEntry[];
    try {
      entries = readEntriesSync(index, list, { bounded: true });
    } catch (err) {
      // The file changed (or went) since it was indexed: say so in place, never fail the screen.
      return unreadable(items[i].id, err);
    }
    const byId = new Map(list.map((id, k) => [id, entries[k]]));
    for (let k = from; k < to; k++)
      if (!made.has(k))
        made.set(
          k,
          make(items[k], (id) => byId.get(id)!),
        );
    return undefined;
  };

  return {
    length: items.length,
    kind: (i) => items[i].kind,
    entryId: (i) => items[i].id,
    get(i) {
      if (!made.has(i)) {
        const failed = makeChunk(i);
        if (failed !== undefined) return failed;
      }
      return made.get(i)!;
    },
  };
}

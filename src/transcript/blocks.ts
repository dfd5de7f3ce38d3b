import { toolCallLine } from "../model/text.js";
import type { SessionEntry } from "../model/types.js";

/*
 * A conversation as pi shows it, as a list of blocks: what the reader pane lays out and
 * what the Markdown and HTML exports write. Built from a branch's entries (root → leaf)
 * in one pass; texts are referenced, not copied or measured, so a 20 MB tool output
 * costs nothing here. All strings are raw session text: sanitize before display.
 */

export type AssistantPart = { type: "text" | "thinking"; text: string };

/** Any block may carry `edit`: shown as the model sees it after a context edit (set by the reader, never by buildBlocks). */
export type Block = BlockBody & { edit?: BlockEdit };

type BlockBody =
  | { kind: "user"; entryId: string; text: string; images: number }
  | {
      kind: "assistant";
      entryId: string;
      parts: AssistantPart[];
      model?: string;
      /** "aborted" or the error message of a failed turn. */
      error?: string;
      /** Nothing but tool calls: the header alone, so the calls are not read as the user's. */
      toolsOnly?: boolean;
    }
  | {
      kind: "tool";
      /** The assistant entry of the call, or the result / bash entry when there is no call. */
      entryId: string;
      /** One line: `bash: npm test`, or `$ npm test` for a user's `!` command. */
      title: string;
      /** Undefined while no result is on the branch (or while it is not read yet: see `load`). */
      output?: string;
      resultEntryId?: string;
      isError: boolean;
      images: number;
      /**
       * A result not read yet (a bulky line of a lazily read session): its size in bytes
       * and how to read it. Read only when the output is shown.
       */
      bytes?: number;
      load?: () => ToolOutput;
    }
  | { kind: "compaction"; entryId: string; summary: string; tokensBefore?: number }
  | { kind: "branch_summary"; entryId: string; summary: string }
  | { kind: "custom"; entryId: string; customType: string; text: string };

export type BlockKind = Block["kind"];

/** A block shown as the model sees it after a context edit (the reader marks it): omitted, or its content replaced. */
export type BlockEdit = "omit" | "replace";
export type ToolBlock = Extract<Block, { kind: "tool" }>;
export interface ToolOutput {
  output: string;
  isError: boolean;
  images: number;
}

/**
 * The blocks of a transcript, by index: an array, or a session read lazily (lazy.ts),
 * where a block is read from disk only when asked for. `kind` never reads; `get` may
 * return null for a block that turns out to show nothing (a turn of tool calls only).
 */
export interface BlockList {
  readonly length: number;
  kind(i: number): BlockKind;
  /** The entry block `i` starts at (never reads): blocks are in branch order, so a reader can find an entry's block. */
  entryId(i: number): string;
  get(i: number): Block | null;
}

export function blockArray(blocks: readonly Block[]): BlockList {
  return {
    length: blocks.length,
    kind: (i) => blocks[i].kind,
    entryId: (i) => blocks[i].entryId,
    get: (i) => blocks[i] ?? null,
  };
}

type ContentBlock = {
  type?: unknown;
  text?: unknown;
  thinking?: unknown;
  id?: unknown;
  name?: unknown;
  arguments?: unknown;
};

function blocksOf(content: unknown): ContentBlock[] {
  return Array.isArray(content) ? (content.filter((b) => b && typeof b === "object") as ContentBlock[]) : [];
}

/** Text of a string or of its text blocks joined by `sep`, and the image count. */
function textAndImages(content: unknown, sep = "\n"): { text: string; images: number } {
  if (typeof content === "string") return { text: content, images: 0 };
  const texts: string[] = [];
  let images = 0;
  for (const b of blocksOf(content)) {
    if (b.type === "text" && typeof b.text === "string") texts.push(b.text);
    else if (b.type === "image") images++;
  }
  return { text: texts.join(sep), images };
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/**
 * The blocks of a branch, given its entries in order. As pi's chat: a tool result is
 * shown with its call (a result without a call on the branch stands alone); custom,
 * label, session_info, model and thinking-level changes and unknown entry types are
 * skipped, as are custom messages without `display` and roles pi does not draw.
 */
export function buildBlocks(
  entries: Iterable<SessionEntry>,
  /** The turn before the first entry was the assistant's (a block list made piece by piece, src/transcript/lazy.ts). */
  opts: { inTurn?: boolean } = {},
): Block[] {
  const blocks: Block[] = [];
  const inTurn = () => (blocks.length ? ["assistant", "tool"].includes(blocks.at(-1)!.kind) : !!opts.inTurn);
  // toolCallId → the block waiting for its result.
  const pending = new Map<string, ToolBlock>();
  for (const entry of entries) {
    switch (entry.type) {
      case "message":
        addMessage(entry, blocks, pending, inTurn);
        break;
      case "compaction":
        blocks.push({
          kind: "compaction",
          entryId: entry.id,
          summary: str(entry.summary) ?? "",
          tokensBefore: typeof entry.tokensBefore === "number" ? entry.tokensBefore : undefined,
        });
        break;
      case "branch_summary":
        // pi draws a branch summary only when it has text.
        if (str(entry.summary))
          blocks.push({ kind: "branch_summary", entryId: entry.id, summary: entry.summary as string });
        break;
      case "custom_message":
        // pi draws a custom message only when its display flag is set.
        if (entry.display) blocks.push(customBlock(entry.id, entry.customType, entry.content));
        break;
      default:
        break;
    }
  }
  return blocks;
}

function customBlock(entryId: string, customType: unknown, content: unknown): Block {
  return { kind: "custom", entryId, customType: str(customType) ?? "custom", text: textAndImages(content).text };
}

function addMessage(
  entry: SessionEntry,
  blocks: Block[],
  pending: Map<string, ToolBlock>,
  inTurn: () => boolean,
): void {
  const m = entry.message;
  if (!m || typeof m !== "object") return;
  switch (m.role) {
    case "user": {
      // As pi: text blocks joined as they are, and a message without text is not drawn.
      const { text, images } = textAndImages(m.content, "");
      if (text) blocks.push({ kind: "user", entryId: entry.id, text, images });
      return;
    }
    case "assistant": {
      const parts: AssistantPart[] = [];
      const calls: ContentBlock[] = [];
      if (typeof m.content === "string") parts.push({ type: "text", text: m.content });
      for (const b of blocksOf(m.content)) {
        if (b.type === "text" && typeof b.text === "string" && b.text.trim())
          parts.push({ type: "text", text: b.text });
        else if (b.type === "thinking" && typeof b.thinking === "string" && b.thinking.trim())
          parts.push({ type: "thinking", text: b.thinking });
        else if (b.type === "toolCall") calls.push(b);
      }
      const stop = str(m.stopReason);
      const error =
        stop === "aborted"
          ? (str(m.errorMessage) ?? "aborted")
          : stop === "error"
            ? (str(m.errorMessage) ?? "error")
            : undefined;
      if (parts.length || error || !calls.length) {
        blocks.push({ kind: "assistant", entryId: entry.id, parts, model: str(m.model), ...(error ? { error } : {}) });
      } else if (!inTurn()) {
        // A reply of tool calls only, right after the user's message: without a header its
        // calls would sit under "You".
        blocks.push({ kind: "assistant", entryId: entry.id, parts, model: str(m.model), toolsOnly: true });
      }
      for (const c of calls) {
        const tool: ToolBlock = {
          kind: "tool",
          entryId: entry.id,
          title: toolCallLine(c.name, c.arguments),
          isError: false,
          images: 0,
        };
        // As pi: a call of a failed or aborted turn shows the turn's error as its result.
        if (error) Object.assign(tool, { output: error, isError: true });
        else if (typeof c.id === "string") pending.set(c.id, tool);
        blocks.push(tool);
      }
      return;
    }
    case "toolResult": {
      const id = str(m.toolCallId);
      const waiting = id === undefined ? undefined : pending.get(id);
      if (waiting) {
        pending.delete(id!);
        Object.assign(waiting, { resultEntryId: entry.id, ...toolOutputOf(m) });
        return;
      }
      blocks.push({
        kind: "tool",
        entryId: entry.id,
        title: str(m.toolName) ?? "tool",
        resultEntryId: entry.id,
        ...toolOutputOf(m),
      });
      return;
    }
    case "bashExecution":
      blocks.push({
        kind: "tool",
        entryId: entry.id,
        title: `$ ${str(m.command) ?? ""}`,
        resultEntryId: entry.id,
        ...toolOutputOf(m),
      });
      return;
    case "custom":
      if (m.display) blocks.push(customBlock(entry.id, m.customType, m.content));
      return;
    default:
      // system prompts and roles pi does not draw
      return;
  }
}

/** What a toolResult or bashExecution message shows as a tool's output (a failed `!` command is an error). */
export function toolOutputOf(m: Record<string, unknown>): ToolOutput {
  if (m.role === "bashExecution") {
    const exit = typeof m.exitCode === "number" ? m.exitCode : undefined;
    return {
      output: str(m.output) ?? "",
      isError: m.cancelled === true || (exit !== undefined && exit !== 0),
      images: 0,
    };
  }
  const { text, images } = textAndImages(m.content);
  return { output: text, isError: m.isError === true, images };
}

/** Blocks `{` / `}` stop at: messages and summaries, not tool calls. */
export function isMessageKind(kind: BlockKind): boolean {
  return kind !== "tool";
}

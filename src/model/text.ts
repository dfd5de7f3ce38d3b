import { compactJson } from "./bounded-json.js";
import type { SessionEntry } from "./types.js";

type Block = { type?: unknown; text?: unknown; name?: unknown; arguments?: unknown; thinking?: unknown };

/** pi's extractTextContent: a string, or the text blocks joined with " ". */
export function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const b of content as Block[]) {
    if (b && b.type === "text" && typeof b.text === "string") parts.push(b.text);
  }
  return parts.join(" ");
}

/**
 * The text pi puts in its editor when /tree goes back to a user message (contentText with no
 * separator): a string as is, else the text blocks joined.
 */
export function editorText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as Block[])
    .filter((b) => b && b.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string)
    .join("");
}

/** One line for a tool call, as the preview and tree show it: `bash: npm test`, `read: src/a.ts`. */
export function toolCallLine(name: unknown, args: unknown): string {
  const tool = typeof name === "string" ? name : "tool";
  let detail = "";
  if (args && typeof args === "object") {
    const a = args as Record<string, unknown>;
    const first = a.command ?? a.path ?? a.file_path ?? a.pattern ?? a.query ?? a.url;
    if (typeof first === "string") detail = first;
    else {
      // Arguments may nest absurdly deep: a bounded walk, cut to what one line shows.
      const s = compactJson(a);
      detail = s === "{}" ? "" : s;
    }
  } else if (typeof args === "string") detail = args;
  return detail ? `${tool}: ${detail}` : tool;
}

export interface EntryDescription {
  /** user, assistant, toolResult, bashExecution, custom, compaction, branch_summary, model_change, … */
  role: string;
  /** Full text without thinking. */
  text: string;
  toolCalls: string[];
}

function stringField(e: SessionEntry, k: string): string {
  const v = e[k];
  return typeof v === "string" ? v : "";
}

/** What an entry says, for the preview, the tree rows and full-text search. */
export function describeEntry(entry: SessionEntry): EntryDescription {
  switch (entry.type) {
    case "message": {
      const m = entry.message ?? {};
      const role = typeof m.role === "string" ? m.role : "message";
      if (role === "bashExecution") {
        const cmd = typeof m.command === "string" ? m.command : "";
        return { role, text: cmd, toolCalls: [] };
      }
      const toolCalls: string[] = [];
      if (Array.isArray(m.content)) {
        for (const b of m.content as Block[]) {
          if (b && b.type === "toolCall") toolCalls.push(toolCallLine(b.name, b.arguments));
        }
      }
      let text = messageText(m.content);
      if (!text && role === "assistant" && typeof m.errorMessage === "string") text = m.errorMessage;
      return { role, text, toolCalls };
    }
    case "compaction":
      return { role: "compaction", text: stringField(entry, "summary"), toolCalls: [] };
    case "branch_summary":
      return { role: "branch_summary", text: stringField(entry, "summary"), toolCalls: [] };
    case "custom_message":
      return { role: "custom_message", text: messageText(entry.content), toolCalls: [] };
    case "custom":
      return { role: "custom", text: stringField(entry, "customType"), toolCalls: [] };
    case "model_change":
      return {
        role: "model_change",
        text: `${stringField(entry, "provider")}/${stringField(entry, "modelId")}`,
        toolCalls: [],
      };
    case "thinking_level_change":
      return { role: "thinking_level_change", text: stringField(entry, "thinkingLevel"), toolCalls: [] };
    case "label":
      return { role: "label", text: stringField(entry, "label"), toolCalls: [] };
    case "session_info":
      return { role: "session_info", text: stringField(entry, "name"), toolCalls: [] };
    case "context_edit": {
      const r = entry.replacement as { content?: unknown } | null | undefined;
      const what =
        r && typeof r === "object"
          ? `replace ${stringField(entry, "targetId")}: ${messageText(r.content)}`
          : `omit ${stringField(entry, "targetId")}`;
      return { role: "context_edit", text: what, toolCalls: [] };
    }
    case "usage":
      return {
        role: "usage",
        text: `${stringField(entry, "kind")} ${stringField(entry, "provider")}/${stringField(entry, "model")}`.trim(),
        toolCalls: [],
      };
    default:
      return { role: entry.type, text: "", toolCalls: [] };
  }
}

/** The short text `show` and tree rows carry: text, else the tool calls. */
export function entryShortText(entry: SessionEntry, max = 200): string {
  const d = describeEntry(entry);
  const text = d.text || d.toolCalls.join("; ");
  return text.length > max ? text.slice(0, max) : text;
}

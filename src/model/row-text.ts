import type { SessionIndex } from "./index-types.js";
import type { EntryNode } from "./types.js";

/** toolCallId → "bash: npm test", so a tool result row can say what was run. */
export function toolCallMap(index: SessionIndex): Map<string, string> {
  const map = new Map<string, string>();
  for (const n of index.nodes) if (n.toolCalls) for (const [id, line] of n.toolCalls) map.set(id, line);
  return map;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** A tree row's text, as pi's /tree words it. Raw: sanitize before display. */
export function rowText(node: EntryNode, calls: ReadonlyMap<string, string>): { kind: string; text: string } {
  const text = oneLine(node.text ?? "");
  switch (node.type) {
    case "message":
      switch (node.role) {
        case "user":
          return { kind: "user", text: `user: ${text}` };
        case "assistant":
          if (text) return { kind: "assistant", text: `assistant: ${text}` };
          if (node.stopReason === "aborted") return { kind: "assistant", text: "assistant: (aborted)" };
          if (node.toolCalls?.length) return { kind: "tool", text: node.toolCalls.map((c) => c[1]).join("; ") };
          return { kind: "assistant", text: "assistant: (no content)" };
        case "toolResult": {
          const call = node.toolCallId ? calls.get(node.toolCallId) : undefined;
          return { kind: "tool", text: call ? oneLine(call) : `[${node.toolName ?? "tool"}]` };
        }
        case "bashExecution":
          return { kind: "tool", text: `[bash]: ${text}` };
        default:
          return { kind: "meta", text: `[${node.role ?? "message"}]${text ? ` ${text}` : ""}` };
      }
    case "compaction":
      return { kind: "meta", text: `[compaction ${Math.round((node.tokensBefore ?? 0) / 1000)}k tokens]` };
    case "branch_summary":
      return { kind: "meta", text: `[branch summary] ${text}` };
    case "model_change":
      return { kind: "meta", text: `[model → ${node.model ?? "?"}]` };
    case "thinking_level_change":
      return { kind: "meta", text: `[thinking: ${text}]` };
    case "custom_message":
      return { kind: "meta", text: `[${node.customType ?? "custom"}]: ${text}` };
    case "custom":
      return { kind: "meta", text: `[custom: ${node.customType ?? "?"}]` };
    case "label":
      return { kind: "meta", text: `[label: ${text || "(cleared)"}]` };
    case "session_info":
      return { kind: "meta", text: `[title: ${text || "(cleared)"}]` };
    case "context_edit":
      return { kind: "meta", text: `[context ${node.edit ?? "replace"}: ${node.targetId ?? "?"}]` };
    case "usage":
      return { kind: "meta", text: `[usage: ${node.usageKind ?? "?"} ${node.model ?? ""}]`.replace(" ]", "]") };
    default:
      return { kind: "meta", text: `[${node.type}]` };
  }
}

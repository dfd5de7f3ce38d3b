import { buildContext } from "../../src/model/context.js";
import { sharedIndexCache } from "../../src/store/index-cache.js";
import { readEntry } from "../../src/store/session-index.js";
import { describeEntry } from "../../src/model/text.js";
import { activePath } from "../../src/model/tree.js";
import { sanitizeLine, sanitizeMultiline } from "../../src/text/sanitize.js";
import type { PreviewEntry, PreviewTail } from "./types.js";

/** The preview shows at most this much of one message; the rest is never wrapped or held. */
const MAX_TEXT = 4000;
const SHOWN_ROLES = new Set(["user", "assistant", "bashExecution"]);
/** How far into the active path the first exchange is looked for. */
const HEAD_SCAN = 12;

/**
 * The tail of the active path, and its first exchange: user and assistant text and tool-call lines, thinking
 * excluded (describeEntry drops it). Only the last `maxEntries` entries are read in full.
 * As pi resumes it: an entry a context edit replaced reads its replacement, one it omitted
 * is only marked (the tree's `e` shows either as written).
 */
export async function loadPreviewTail(path: string, maxEntries = 40): Promise<PreviewTail> {
  // Skimmed (the preview never needs bulky tool outputs parsed) and kept for the tree.
  const index = await sharedIndexCache.get(path);
  const ids = activePath(index);
  const { edits } = buildContext(index);
  const shown = async (id: string): Promise<PreviewEntry | undefined> => {
    const node = index.byId.get(id);
    if (!node || node.type !== "message" || !SHOWN_ROLES.has(node.role ?? "")) return undefined;
    const edit = edits.get(id);
    if (edit) {
      const replaced = edit.kind === "replace" ? (edit.text ?? "") : "";
      const text = replaced.length > MAX_TEXT ? replaced.slice(0, MAX_TEXT) + " …" : replaced;
      return { role: node.role!, text: sanitizeMultiline(text).trim(), toolCalls: [], edit: edit.kind };
    }
    const d = describeEntry(await readEntry(path, node));
    const text = d.text.length > MAX_TEXT ? d.text.slice(0, MAX_TEXT) + " …" : d.text;
    if (d.role === "bashExecution") return { role: "assistant", text: "", toolCalls: [sanitizeLine(`$ ${text}`)] };
    if (!text.trim() && d.toolCalls.length === 0) return undefined;
    return { role: d.role, text: sanitizeMultiline(text).trim(), toolCalls: d.toolCalls.map(sanitizeLine) };
  };
  const entries: PreviewEntry[] = [];
  for (const id of ids.slice(-maxEntries)) {
    const e = await shown(id);
    if (e) entries.push(e);
  }
  // The first exchange: up to the first reply with text after the first user message (a
  // few entries read, however long the session).
  const head: PreviewEntry[] = [];
  for (const id of ids.slice(0, HEAD_SCAN)) {
    const e = await shown(id);
    if (!e || (head.length === 0 && e.role !== "user")) continue;
    head.push(e);
    if (e.role === "assistant" && e.text) break;
  }
  return { entries, head, pathLength: ids.length };
}

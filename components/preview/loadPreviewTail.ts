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

/**
 * The tail of the active path: user and assistant text and tool-call lines, thinking
 * excluded (describeEntry drops it). Only the last `maxEntries` entries are read in full.
 * As pi resumes it: an entry a context edit replaced reads its replacement, one it omitted
 * is only marked (the tree's `e` shows either as written).
 */
export async function loadPreviewTail(path: string, maxEntries = 40): Promise<PreviewTail> {
  // Skimmed (the preview never needs bulky tool outputs parsed) and kept for the tree.
  const index = await sharedIndexCache.get(path);
  const ids = activePath(index);
  const { edits } = buildContext(index);
  const entries: PreviewEntry[] = [];
  for (const id of ids.slice(-maxEntries)) {
    const node = index.byId.get(id);
    if (!node || node.type !== "message" || !SHOWN_ROLES.has(node.role ?? "")) continue;
    const edit = edits.get(id);
    if (edit) {
      const replaced = edit.kind === "replace" ? (edit.text ?? "") : "";
      const text = replaced.length > MAX_TEXT ? replaced.slice(0, MAX_TEXT) + " …" : replaced;
      entries.push({ role: node.role!, text: sanitizeMultiline(text).trim(), toolCalls: [], edit: edit.kind });
      continue;
    }
    const d = describeEntry(await readEntry(path, node));
    const text = d.text.length > MAX_TEXT ? d.text.slice(0, MAX_TEXT) + " …" : d.text;
    if (d.role === "bashExecution") {
      entries.push({ role: "assistant", text: "", toolCalls: [sanitizeLine(`$ ${text}`)] });
      continue;
    }
    if (!text.trim() && d.toolCalls.length === 0) continue;
    entries.push({ role: d.role, text: sanitizeMultiline(text).trim(), toolCalls: d.toolCalls.map(sanitizeLine) });
  }
  return { entries, pathLength: ids.length };
}

import type { AppliedEdit } from "../../src/model/context.js";
import { rowText } from "../../src/model/row-text.js";
import { describeEntry } from "../../src/model/text.js";
import type { EntryNode, SessionEntry } from "../../src/model/types.js";
import { formatDateTime, formatSessionCost, formatTokens } from "../../src/text/format.js";
import { sanitizeLine, sanitizeMultiline, truncateToWidth, wrapToWidth } from "../../src/text/sanitize.js";
import type { ToneLine as PreviewLine } from "../preview/LinesPane.js";
import type { ToneName } from "../theme/theme.js";

export type EntryPreviewState =
  { status: "loading" } | { status: "ready"; entry: SessionEntry } | { status: "error"; error: string };

export const MAX_PREVIEW_CHARS = 100_000;

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** "tokens 1.2k in · 340 out · cache 12k read, 1.0k write · $0.01" from an assistant message's usage. */
export function usageText(usage: unknown): string | null {
  if (!usage || typeof usage !== "object") return null;
  const u = usage as Record<string, unknown>;
  const parts = [`${formatTokens(num(u.input))} in`, `${formatTokens(num(u.output))} out`];
  const cr = num(u.cacheRead);
  const cw = num(u.cacheWrite);
  if (cr || cw) parts.push(`cache ${formatTokens(cr)} read, ${formatTokens(cw)} write`);
  const cost = u.cost && typeof u.cost === "object" ? num((u.cost as Record<string, unknown>).total) : 0;
  // The same form as the session preview's cost, so one reply reads the same in both.
  if (cost) parts.push(formatSessionCost(cost));
  return `tokens ${parts.join(" · ")}`;
}

function when(ts: unknown): string {
  return typeof ts === "string" ? formatDateTime(new Date(ts)) : "?";
}

/**
 * The selected entry in full: a facts header (role, time, model, tokens, label), then its
 * text wrapped to the width and its tool calls. Everything from the file is sanitized.
 */
export function entryPreviewLines(
  node: EntryNode,
  state: EntryPreviewState,
  label: string | undefined,
  calls: ReadonlyMap<string, string>,
  width: number,
  /** A context edit in effect on this entry; `original`: show the entry as written. */
  edit?: AppliedEdit & { original: boolean },
): PreviewLine[] {
  const w = Math.max(1, width);
  const out: PreviewLine[] = [];
  const push = (text: string, tone?: ToneName) => out.push({ text: truncateToWidth(text, w), tone });
  const entry = state.status === "ready" ? state.entry : undefined;
  const d = entry ? describeEntry(entry) : undefined;
  const role = d?.role ?? node.role ?? node.type;
  push(`${sanitizeLine(role)} · ${when(entry?.timestamp ?? node.timestamp)} · ${node.id}`, "title");
  const msg = entry?.message;
  const model = typeof msg?.model === "string" ? msg.model : node.model;
  const provider = typeof msg?.provider === "string" ? msg.provider : undefined;
  // pi 1.5.2 records the model that actually answered (responseModel) and the thinking level.
  const answered =
    typeof msg?.responseModel === "string" && msg.responseModel !== model ? ` (answered by ${msg.responseModel})` : "";
  const thinking = typeof msg?.thinkingLevel === "string" ? ` · thinking ${msg.thinkingLevel}` : "";
  if (model)
    push(`model ${sanitizeLine(`${provider ? `${provider}/${model}` : model}${answered}${thinking}`)}`, "muted");
  // Usage is recorded on tool results, compactions, branch summaries and usage entries too.
  const usage = usageText(msg?.usage ?? entry?.usage);
  if (usage) push(usage, "muted");
  if (label) push(`label [${sanitizeLine(label)}]`, "named");
  if (edit) {
    const what = edit.kind === "omit" ? "⊘ omitted from the model's context" : "✎ replaced in the model's context";
    push(`${what} by context edit ${edit.editId}`, "warning");
    push(
      edit.original
        ? "showing it as written · O: as the model sees it"
        : `${edit.kind === "omit" ? "the model does not see it" : "showing the replacement"} · O: as written`,
      "muted",
    );
  }
  out.push({ text: "" });
  if (edit && !edit.original) {
    const shown = edit.kind === "omit" ? "" : (edit.text ?? "");
    if (shown) for (const l of wrapToWidth(sanitizeMultiline(shown), w)) out.push({ text: l });
    return out;
  }
  if (state.status === "error") {
    push(`cannot read the entry: ${sanitizeLine(state.error)}`, "error");
    return out;
  }
  if (!d) {
    for (const l of wrapToWidth(sanitizeMultiline(rowText(node, calls).text), w)) out.push({ text: l });
    out.push({ text: "loading…", tone: "muted" });
    return out;
  }
  const call = role === "toolResult" && node.toolCallId ? calls.get(node.toolCallId) : undefined;
  if (call) push(`result of ${sanitizeLine(call)}`, "tool");
  const full = d.text || (d.toolCalls.length ? "" : rowText(node, calls).text);
  // A 20 MB tool output is cut before wrapping: the preview stays instant.
  const body = full.length > MAX_PREVIEW_CHARS ? full.slice(0, MAX_PREVIEW_CHARS) : full;
  if (body) for (const l of wrapToWidth(sanitizeMultiline(body), w)) out.push({ text: l });
  if (body.length < full.length) push(`… ${full.length - body.length} more characters`, "muted");
  if (d.toolCalls.length) {
    if (body) out.push({ text: "" });
    for (const c of d.toolCalls)
      for (const l of wrapToWidth("→ " + sanitizeMultiline(c), w)) out.push({ text: l, tone: "tool" });
  }
  return out;
}

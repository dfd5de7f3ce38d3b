import { sanitizeLine, truncateStartToWidth, truncateToWidth, wrapToWidth } from "../../src/text/sanitize.js";
import { formatDateTime, formatTokens } from "../../src/text/format.js";
import type { ListedSession } from "../state/sessions.js";
import type { ToneLine } from "./LinesPane.js";
import type { PreviewEntry, PreviewState } from "./types.js";

export type Line = ToneLine;

/** The facts block: one line each, cut to the width (paths from the left). */
export function factLines(s: ListedSession, width: number, compact = false): Line[] {
  const fact = (k: string, v: string, fromLeft = false): Line => {
    const label = `${k.padEnd(9)}`;
    const room = Math.max(0, width - label.length);
    return { text: label + (fromLeft ? truncateStartToWidth(v, room) : truncateToWidth(v, room)) };
  };
  const lines: Line[] = [];
  if (s.name) lines.push({ text: truncateToWidth(sanitizeLine(s.name), width), tone: "named" });
  lines.push(fact("path", sanitizeLine(s.path), true));
  if (compact) lines.push(fact("id", `${sanitizeLine(s.id)}   cwd ${sanitizeLine(s.cwd)}`), fact("created", `${formatDateTime(s.created)}   modified ${formatDateTime(s.modified)}`));
  else lines.push(fact("id", sanitizeLine(s.id)), fact("cwd", sanitizeLine(s.cwd), true), fact("created", formatDateTime(s.created)), fact("modified", formatDateTime(s.modified)));
  if (s.provisional) {
    lines.push({ text: truncateToWidth("counting messages, tokens and cost…", width), tone: "muted" });
  } else {
    const t = s.tokens;
    if (compact) {
      lines.push(
        fact("models", s.models.length ? s.models.map(sanitizeLine).join(", ") : "—"),
        fact("stats", `${s.messageCount} msgs · ${formatTokens(t.total)} tokens · $${s.cost.toFixed(s.cost < 1 ? 4 : 2)} · ${s.leafCount} branches · ${s.labelCount} labels`),
      );
    } else lines.push(
      fact("models", s.models.length ? s.models.map(sanitizeLine).join(", ") : "—"),
      fact("tokens", `${formatTokens(t.total)} (in ${formatTokens(t.input)}, out ${formatTokens(t.output)}, cache ${formatTokens(t.cacheRead + t.cacheWrite)})`),
      fact("cost", `$${s.cost.toFixed(s.cost < 1 ? 4 : 2)}`),
      fact("messages", `${s.messageCount}   branches ${s.leafCount}   labels ${s.labelCount}`),
    );
  }
  if (s.unreadable) lines.push({ text: truncateToWidth(`unreadable: ${sanitizeLine(s.unreadable)}`, width), tone: "error" });
  for (const w of s.warnings.slice(0, 2)) lines.push({ text: truncateToWidth(`warning: ${sanitizeLine(w)}`, width), tone: "warning" });
  return lines;
}

const EDIT_MARK = { omit: " ⊘ omitted from the model's context (t, e: as written)", replace: " ✎ edited for the model (t, e: as written)" };

function entryLines(e: PreviewEntry, width: number): Line[] {
  const role = e.role === "user" ? "you" : e.role;
  const out: Line[] = [{ text: truncateToWidth(e.edit ? role + EDIT_MARK[e.edit] : role, width), tone: e.role === "user" ? "user" : "assistant" }];
  if (e.text) for (const l of wrapToWidth(e.text, Math.max(1, width - 2))) out.push({ text: "  " + l });
  for (const c of e.toolCalls) out.push({ text: truncateToWidth("  → " + c, width), tone: "tool" });
  return out;
}

/**
 * Exactly the lines the pane shows: facts, a rule, then as much of the end of the
 * conversation as fits. Entries are wrapped from the last one backwards and
 * wrapping stops once the pane is full, so a long session costs no more than a short one.
 */
export function previewLines(s: ListedSession, state: PreviewState, width: number, height: number): Line[] {
  if (height <= 0 || width <= 0) return [];
  // Short panes (preview below the list) get the facts packed into fewer lines.
  const facts = factLines(s, width, height < 20);
  const lines = facts.slice(0, height);
  const room = height - lines.length - 1;
  if (room <= 0) return lines;
  lines.push({ text: "─".repeat(width), tone: "muted" });
  switch (state.status) {
    case "idle":
    case "loading":
      lines.push({ text: "loading…", tone: "muted" });
      return lines;
    case "error":
      lines.push({ text: truncateToWidth(`cannot read: ${sanitizeLine(state.error)}`, width), tone: "error" });
      return lines;
    case "ready": {
      const { entries } = state.tail;
      if (entries.length === 0) {
        lines.push({ text: "(no messages)", tone: "muted" });
        return lines;
      }
      let tail: Line[] = [];
      for (let i = entries.length - 1; i >= 0 && tail.length < room; i--) tail = [...entryLines(entries[i], width), ...tail];
      return lines.concat(tail.slice(-room));
    }
  }
}

import { sanitizeLine, truncateStartToWidth, truncateToWidth, wrapToWidth } from "../../src/text/sanitize.js";
import { formatDateTime, formatSessionCost, formatTokens, groupDigits, plural } from "../../src/text/format.js";
import { matchRanges } from "../../src/search/match-ranges.js";
import type { Query } from "../../src/search/query.js";
import type { ListedSession } from "../../src/browser/list/sessions.js";
import type { ToneLine } from "./LinesPane.js";
import type { PreviewEntry, PreviewState } from "./types.js";

/** `said`: a line of the conversation (what a search highlights), not of the facts. */
export type Line = ToneLine & { said?: true };

/**
 * pi's "modified" is the last message's time: a fork or an import copies older messages into
 * a file created now, so it can come before "created". Said, so it does not read as a bug.
 */
export function predates(s: { created: Date; modified: Date }): string {
  return s.modified.getTime() < s.created.getTime() - 60_000 ? " (last message: copied from an older session)" : "";
}

/** The facts block: one line each, cut to the width (paths from the left). */
export function factLines(s: ListedSession, width: number, compact = false): Line[] {
  const fact = (k: string, v: string, fromLeft = false): Line => {
    const label = `${k.padEnd(9)}`;
    const room = Math.max(0, width - label.length);
    return { text: label + (fromLeft ? truncateStartToWidth(v, room) : truncateToWidth(v, room)) };
  };
  const lines: Line[] = [];
  if (s.name) lines.push({ text: truncateToWidth(sanitizeLine(s.name), width), tone: "named" });
  // Another machine's session: its host, and its path there (not this machine's copy of it).
  if (s.host !== undefined) lines.push(fact("host", sanitizeLine(s.host)));
  lines.push(fact("path", sanitizeLine(s.remotePath ?? s.path), true));
  if (compact)
    lines.push(
      fact("id", `${sanitizeLine(s.id)}   cwd ${sanitizeLine(s.cwd)}`),
      // Compact, the note would be cut: the full preview says it.
      fact("created", `${formatDateTime(s.created)}   modified ${formatDateTime(s.modified)}`),
    );
  else
    lines.push(
      fact("id", sanitizeLine(s.id)),
      fact("cwd", sanitizeLine(s.cwd), true),
      fact("created", formatDateTime(s.created)),
      fact("modified", formatDateTime(s.modified) + predates(s)),
    );
  if (s.provisional) {
    lines.push({ text: truncateToWidth("counting messages, tokens and cost…", width), tone: "muted" });
  } else {
    const t = s.tokens;
    if (compact) {
      lines.push(
        fact("models", s.models.length ? s.models.map(sanitizeLine).join(", ") : "—"),
        fact(
          "stats",
          `${plural(s.messageCount, "msg")} · ${formatTokens(t.total)} tokens · ${formatSessionCost(s.cost)} · ${plural(s.leafCount, "branch")} · ${plural(s.labelCount, "label")}`,
        ),
      );
    } else
      lines.push(
        fact("models", s.models.length ? s.models.map(sanitizeLine).join(", ") : "—"),
        fact(
          "tokens",
          `${formatTokens(t.total)} (in ${formatTokens(t.input)}, out ${formatTokens(t.output)}, cache ${formatTokens(t.cacheRead + t.cacheWrite)})`,
        ),
        fact("cost", formatSessionCost(s.cost)),
        fact(
          "messages",
          `${groupDigits(s.messageCount)}   branches ${groupDigits(s.leafCount)}   labels ${groupDigits(s.labelCount)}`,
        ),
      );
  }
  if (s.unreadable)
    lines.push({ text: truncateToWidth(`unreadable: ${sanitizeLine(s.unreadable)}`, width), tone: "error" });
  for (const w of s.warnings.slice(0, 2))
    lines.push({ text: truncateToWidth(`warning: ${sanitizeLine(w)}`, width), tone: "warning" });
  return lines;
}

const EDIT_MARK = {
  omit: " ⊘ omitted from the model's context (t, then O: as written)",
  replace: " ✎ edited for the model (t, then O: as written)",
};

function entryLines(e: PreviewEntry, width: number): Line[] {
  const role = e.role === "user" ? "you" : e.role;
  const out: Line[] = [
    {
      text: truncateToWidth(e.edit ? role + EDIT_MARK[e.edit] : role, width),
      tone: e.role === "user" ? "user" : "assistant",
      said: true,
    },
  ];
  if (e.text) for (const l of wrapToWidth(e.text, Math.max(1, width - 2))) out.push({ text: "  " + l, said: true });
  for (const c of e.toolCalls) out.push({ text: truncateToWidth("  → " + c, width), tone: "tool", said: true });
  return out;
}

/**
 * The conversation's lines from the end backwards, whole entries at a time, until at least
 * `need` lines (all when undefined): `starts` are where entries begin (each with its role
 * line), `complete` says whether the first entry is in.
 */
function conversation(
  entries: readonly PreviewEntry[],
  width: number,
  need?: number,
): { lines: Line[]; starts: number[]; complete: boolean } {
  const parts: Line[][] = [];
  let total = 0;
  let i = entries.length - 1;
  for (; i >= 0 && (need === undefined || total < need); i--) {
    const ls = entryLines(entries[i], width);
    parts.push(ls);
    total += ls.length;
  }
  parts.reverse();
  const starts: number[] = [];
  const lines: Line[] = [];
  for (const ls of parts) {
    starts.push(lines.length);
    for (const l of ls) lines.push(l);
  }
  return { lines, starts, complete: i < 0 };
}

/** How far the conversation can scroll from its default place: `min` up (≤ 0), `max` down (≥ 0). */
export interface ScrollBounds {
  min: number;
  max: number;
}

export interface PreviewView {
  lines: Line[];
  bounds: ScrollBounds;
}

/**
 * Exactly the lines the pane shows: facts, a rule, then the end of the conversation,
 * starting at an entry's role line: the earliest entry from which the rest fits, or the
 * last entry's head when even it does not fit. `offset` scrolls by lines from there
 * (negative: up, towards older entries). Entries are wrapped from the last one backwards
 * and wrapping stops once the pane is full (all of the tail only when scrolled up), so a
 * long session costs no more than a short one.
 */
export function previewView(
  s: ListedSession,
  state: PreviewState,
  width: number,
  height: number,
  offset = 0,
): PreviewView {
  const still: ScrollBounds = { min: 0, max: 0 };
  if (height <= 0 || width <= 0) return { lines: [], bounds: still };
  // Short panes (preview below the list) get the first exchange first, then the facts packed
  // into fewer lines: seven rows of facts alone said nothing of the conversation.
  if (height < SHORT_PANE) return firstExchangeView(s, state, width, height, offset);
  const facts = factLines(s, width);
  const lines = facts.slice(0, height);
  const room = height - lines.length - 1;
  if (room <= 0) return { lines, bounds: still };
  lines.push({ text: "─".repeat(width), tone: "muted" });
  switch (state.status) {
    case "idle":
    case "loading":
      lines.push({ text: "loading…", tone: "muted" });
      return { lines, bounds: still };
    case "error":
      lines.push({ text: truncateToWidth(`cannot read: ${sanitizeLine(state.error)}`, width), tone: "error" });
      return { lines, bounds: still };
    case "ready": {
      const { entries } = state.tail;
      if (entries.length === 0) {
        lines.push({ text: "(no messages)", tone: "muted" });
        return { lines, bounds: still };
      }
      const conv = conversation(entries, width, offset < 0 ? undefined : room);
      const total = conv.lines.length;
      const home = conv.starts.find((b) => total - b <= room) ?? conv.starts[conv.starts.length - 1];
      const lowest = Math.max(home, total - room);
      const start = Math.max(0, Math.min(lowest, home + offset));
      const bounds = { min: conv.complete ? -home : -Infinity, max: lowest - home };
      const shown = conv.lines.slice(start, start + room);
      const below = total - start - room;
      if (below > 0)
        shown[shown.length - 1] = {
          text: truncateToWidth(`↓ ${below + 1} more lines (J/Shift+↓)`, width),
          tone: "muted",
        };
      return { lines: lines.concat(shown), bounds };
    }
  }
}

/** Below this height the pane shows the first exchange above the facts. */
const SHORT_PANE = 20;

/**
 * A short pane: the first exchange (the session's first user message and the reply to it),
 * a rule, then the facts, scrolled by `offset` lines from the top (J/K), the last line
 * saying how many more there are below.
 */
function firstExchangeView(
  s: ListedSession,
  state: PreviewState,
  width: number,
  height: number,
  offset: number,
): PreviewView {
  const talk: Line[] =
    state.status === "ready"
      ? (state.tail.head ?? []).flatMap((e) => entryLines(e, width))
      : state.status === "error"
        ? [{ text: truncateToWidth(`cannot read: ${sanitizeLine(state.error)}`, width), tone: "error" }]
        : [{ text: "loading…", tone: "muted" }];
  if (talk.length === 0) talk.push({ text: "(no messages)", tone: "muted" });
  const all = [...talk, { text: "─".repeat(width), tone: "muted" as const }, ...factLines(s, width, true)];
  const max = Math.max(0, all.length - height);
  const start = Math.max(0, Math.min(max, offset));
  const shown = all.slice(start, start + height);
  const below = all.length - start - height;
  if (below > 0)
    shown[shown.length - 1] = { text: truncateToWidth(`↓ ${below + 1} more lines (J/Shift+↓)`, width), tone: "muted" };
  return { lines: shown, bounds: { min: 0, max } };
}

/** previewView's lines at the default place. */
export function previewLines(s: ListedSession, state: PreviewState, width: number, height: number): Line[] {
  return previewView(s, state, width, height).lines;
}

/**
 * The lines with what `query` matched marked (as data: `ranges`), in the conversation
 * only (not the facts): message text is matched exactly, as the search does.
 */
export function highlightConversation(lines: readonly Line[], query: Query): Line[] {
  if (query.terms.length === 0) return lines as Line[];
  return lines.map((l) => {
    if (!l.said) return l;
    const ranges = matchRanges(query, l.text, "text");
    return ranges.length ? { ...l, ranges } : l;
  });
}

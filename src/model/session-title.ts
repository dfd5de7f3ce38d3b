import { sanitizeLine } from "../text/sanitize.js";

/** What a session's title is made from: pi's SessionInfo fields. */
export interface Titled {
  name?: string;
  firstMessage?: string;
}

/** pi's own word for a session without a user message (SessionInfo.firstMessage). */
export const NO_MESSAGES = "(no messages)";

// A title is shown on one row: no screen is this wide. Cutting before sanitizing keeps a
// 50 MB first message from costing 50 MB of work on every frame.
const TITLE_MAX_CHARS = 2048;

function clip(s: string): string {
  if (s.length <= TITLE_MAX_CHARS) return s;
  const cut = s.slice(0, TITLE_MAX_CHARS);
  // Never end on half a surrogate pair.
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * The one rule for what a session is called on screen, in the list, the tree's header,
 * the dialogs and the CLI: its name, else its first message, else "(no messages)";
 * sanitized to one line and at most a screen row's worth of text. Never the raw id or
 * path: both come from the store and may hold escapes.
 */
export function sessionTitle(s: Titled): string {
  return sanitizeLine(clip(s.name ?? "")).trim() || sanitizeLine(clip(s.firstMessage ?? "")).trim() || NO_MESSAGES;
}

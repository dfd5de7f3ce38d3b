import { type Command, COMMANDS, type CommandId } from "../keys/commands.js";
import { selectedSession } from "../list/list.js";
import { modeOf, topLayer, type AppState } from "./appState.js";

/**
 * Why a command cannot act now (lazygit's disabled reason), or undefined when it can: a
 * key whose command has nothing to act on says so instead of doing nothing in silence, and
 * the footer does not offer it.
 */
/** The keys that move a cursor: with no row, nothing to move to (the footer offers no "move"). */
const LIST_MOVES = new Set<CommandId>([
  "list.up",
  "list.down",
  "list.pageUp",
  "list.pageDown",
  "list.halfUp",
  "list.halfDown",
  "list.top",
  "list.bottom",
]);
const TRASH_MOVES = new Set<CommandId>([
  "trash.up",
  "trash.down",
  "trash.pageUp",
  "trash.pageDown",
  "trash.top",
  "trash.bottom",
]);

export function disabledReason(s: AppState, c: CommandId): string | undefined {
  const mode = modeOf(s);
  const { acts }: Command = COMMANDS[c];
  if (mode === "list" && LIST_MOVES.has(c) && s.rows.length === 0) {
    return !s.scan.done && s.sessions.size === 0 ? "no sessions yet: still scanning" : "no session in this list";
  }
  if (mode === "list" && (acts === "session" || (acts === "sessionOrMarks" && s.marks.size === 0))) {
    if (selectedSession(s)) return undefined;
    if (!s.scan.done && s.sessions.size === 0) return "no sessions yet: still scanning";
    return s.rows.length === 0 ? "no session in this list" : "no session on this row";
  }
  if (mode === "trash" && (c === "trash.restore" || c === "trash.purge" || TRASH_MOVES.has(c))) {
    const top = topLayer(s);
    if (top?.kind === "trash" && top.items && top.items.length === 0) return "the trash is empty";
  }
  return undefined;
}

import { type Command, COMMANDS, type CommandId, LIST_MOVES, TRASH_MOVES } from "../keys/commands.js";
import { selectedSession } from "../list/list.js";
import { readOnlyReason } from "../list/hosts.js";
import { modeOf, topLayer, type AppState } from "./appState.js";

const listMoves = new Set(LIST_MOVES);
/** What writes to the selected session: refused for a host's kept rows while the host does not answer. */
const WRITES: ReadonlySet<CommandId> = new Set<CommandId>(["session.rename", "session.delete", "session.resume"]);
const trashMoves = new Set(TRASH_MOVES);

/** Why a list with no row has none: still scanning, or nothing in this folder or search. */
const emptyList = (s: AppState) =>
  !s.scan.done && s.sessions.size === 0 ? "no sessions yet: still scanning" : "no session in this list";

/**
 * Why a command cannot act now (lazygit's disabled reason), or undefined when it can: a
 * key whose command has nothing to act on says so instead of doing nothing in silence, and
 * the footer does not offer it.
 */
export function disabledReason(s: AppState, c: CommandId): string | undefined {
  const mode = modeOf(s);
  const { acts }: Command = COMMANDS[c];
  // The list and the search typed over it move the same cursor: neither offers a move with no row.
  if ((mode === "list" || mode === "search") && listMoves.has(c) && s.rows.length === 0) return emptyList(s);
  // pi's picker keys (Ctrl+D, Ctrl+R…) act from the search field too: the same reason there.
  const listed = mode === "list" || mode === "search";
  if (listed && (acts === "session" || (acts === "sessionOrMarks" && s.marks.size === 0))) {
    const sel = selectedSession(s);
    if (sel) return WRITES.has(c) ? readOnlyReason(s.hosts, sel, c === "session.resume") : undefined;
    return s.rows.length === 0 ? emptyList(s) : "no session on this row";
  }
  if (listed && c === "session.delete")
    for (const p of s.marks) {
      const why = readOnlyReason(s.hosts, s.sessions.get(p));
      if (why) return why;
    }
  // A host's session in the tree: its writes go to the host, which must be answering.
  if ((c === "tree.label" || c === "tree.resume" || c === "tree.fork") && s.tree)
    return readOnlyReason(s.hosts, s.sessions.get(s.tree.path), c === "tree.resume");
  if (c === "skipped.open" && s.scan.skipped.length === 0) return "no file was skipped";
  if (mode === "trash" && (c === "trash.restore" || c === "trash.purge" || trashMoves.has(c))) {
    const top = topLayer(s);
    if (top?.kind === "trash" && top.items && top.items.length === 0) return "the trash is empty";
  }
  return undefined;
}

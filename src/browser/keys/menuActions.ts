import type { CommandId } from "./commands.js";
import type { Key } from "./key.js";

/** The screens the action menu (x) opens on; each lists its own actions. */
export type MenuScreen = "list" | "tree" | "reader";

/** Every action of a screen, in the order a user reaches for them (lazygit's `x`); each also runs by its own key. */
export const MENU_ACTIONS: Record<MenuScreen, readonly { command: CommandId; label: string }[]> = {
  list: [
    { command: "session.resume", label: "Resume in pi" },
    { command: "tree.open", label: "Open the branch tree" },
    { command: "reader.open", label: "Read the conversation" },
    { command: "session.rename", label: "Rename" },
    { command: "session.mark", label: "Mark for a bulk delete" },
    { command: "session.delete", label: "Delete (to the trash)" },
    { command: "session.undo", label: "Undo the last delete or fork" },
    { command: "session.new", label: "New pi session in its folder" },
    { command: "export.open", label: "Export (Markdown, HTML, JSONL)" },
    { command: "copy.message", label: "Copy the first message" },
    { command: "copy.path", label: "Copy the file path" },
    { command: "copy.id", label: "Copy the session id" },
    { command: "copy.command", label: "Copy the resume command" },
    { command: "session.deletePermanently", label: "Delete permanently" },
    { command: "trash.open", label: "The trash: restore or delete for good" },
    { command: "search.start", label: "Search" },
    { command: "scope.toggle", label: "Scope: this folder / all" },
    { command: "sort.cycle", label: "Next sort order" },
    { command: "list.named", label: "Named sessions only (on/off)" },
    { command: "list.paths", label: "Show each session's file path (on/off)" },
    { command: "usage.open", label: "Usage: tokens and cost by day, folder, model" },
    { command: "help.open", label: "All keys" },
  ],
  tree: [
    { command: "tree.resume", label: "Resume in pi at this entry" },
    { command: "tree.fork", label: "Fork: a new session ending here" },
    { command: "tree.label", label: "Label this entry" },
    { command: "reader.open", label: "Read the branch through this entry" },
    { command: "export.open", label: "Export the branch through this entry" },
    { command: "copy.message", label: "Copy this entry's text" },
    { command: "copy.path", label: "Copy the file path" },
    { command: "copy.id", label: "Copy the session id" },
    { command: "copy.command", label: "Copy the resume command" },
    { command: "tree.search", label: "Search the entries" },
    { command: "tree.filter", label: "Next filter" },
    { command: "tree.labelTimes", label: "Show when each label was set (on/off)" },
    { command: "tree.original", label: "Context edits: as written / as the model sees them" },
    { command: "help.open", label: "All keys" },
  ],
  reader: [
    { command: "reader.search", label: "Search what is shown" },
    { command: "reader.tool", label: "Fold the tool call under the cursor" },
    { command: "reader.allTools", label: "Fold every tool call" },
    { command: "reader.thinking", label: "Show / hide reasoning" },
    { command: "reader.original", label: "Context edits: as the model sees them / as written" },
    { command: "reader.nextBranch", label: "Next sibling branch" },
    { command: "reader.prevBranch", label: "Previous sibling branch" },
    { command: "export.open", label: "Export this branch" },
    { command: "copy.message", label: "Copy the message under the cursor" },
    { command: "copy.path", label: "Copy the file path" },
    { command: "copy.id", label: "Copy the session id" },
    { command: "copy.command", label: "Copy the resume command" },
    { command: "help.open", label: "All keys" },
  ],
};

export function isMenuAction(screen: MenuScreen, c: CommandId): boolean {
  return MENU_ACTIONS[screen].some((a) => a.command === c);
}

/** Keys the menu's select list takes (move, pick by number, run the highlighted item): it chooses, they run nothing themselves. */
export const isMenuListKey = (input: string, key: Key): boolean =>
  key.return || key.upArrow || key.downArrow || input === "j" || input === "k" || /^[1-9]$/.test(input);

/*
 * Every command the browser understands, with its default keys and help text.
 * Keys are data so a user keymap can replace them later (a value replaces the
 * defaults; [] unbinds), the way pi's keybindings.json works.
 */

export const COMMANDS = {
  "list.up": { keys: ["up", "k"], help: "move up" },
  "list.down": { keys: ["down", "j"], help: "move down" },
  "list.pageUp": { keys: ["pageup", "ctrl+b"], help: "page up" },
  "list.pageDown": { keys: ["pagedown", "ctrl+f"], help: "page down" },
  "list.top": { keys: ["g", "home"], help: "first session" },
  "list.bottom": { keys: ["G", "end"], help: "last session" },
  "search.start": { keys: ["/"], help: "search (Enter keeps the query, Esc clears it)" },
  "search.submit": { keys: ["enter"], help: "keep the query and return to the list (picker, --print: pick the selected session)" },
  "search.cancel": { keys: ["escape"], help: "clear the query and return to the list" },
  "input.deleteBack": { keys: ["backspace"], help: "delete the character before the cursor" },
  "input.deleteWord": { keys: ["ctrl+w", "meta+backspace"], help: "delete the word before the cursor" },
  "input.clear": { keys: ["ctrl+u"], help: "clear the query" },
  "input.left": { keys: ["left"], help: "cursor left" },
  "input.right": { keys: ["right"], help: "cursor right" },
  "input.home": { keys: ["ctrl+a"], help: "cursor to start" },
  "input.end": { keys: ["ctrl+e"], help: "cursor to end" },
  "search.toggleTools": { keys: ["ctrl+t", "T"], help: "full-text search: include tool output (on/off)" },
  "scope.toggle": { keys: ["tab"], help: "scope: this folder ↔ all folders" },
  "sort.cycle": { keys: ["s", "ctrl+s"], help: "sort: recent → created → name → messages → size → threaded" },
  "session.resume": { keys: ["enter"], help: "resume the selected session in pi" },
  "session.rename": { keys: ["ctrl+r", "r"], help: "rename the session (an empty name clears it)" },
  "session.delete": { keys: ["ctrl+d", "delete"], help: "delete the session, or the marked ones (to the trash, after a confirmation)" },
  "session.undo": { keys: ["u"], help: "undo the last delete (or bulk delete)" },
  "session.mark": { keys: ["space"], help: "mark or unmark the session and move down (Esc clears the marks)" },
  "rename.submit": { keys: ["enter"], help: "save the new name" },
  "rename.cancel": { keys: ["escape"], help: "cancel the rename" },
  "confirm.yes": { keys: ["y", "enter"], help: "confirm a delete (a permanent delete takes y; any other key cancels)" },
  "help.open": { keys: ["?"], help: "this help" },
  "help.close": { keys: ["escape", "?", "q"], help: "close the help" },
  "dialog.confirm": { keys: ["enter", "o"], help: "confirm" },
  "dialog.cancel": { keys: ["escape", "c", "n"], help: "cancel" },
  "app.back": { keys: ["escape"], help: "clear the search, else quit" },
  "app.quit": { keys: ["q"], help: "quit" },
  "app.interrupt": { keys: ["ctrl+c"], help: "quit (cancels a dialog first)" },
  "tree.open": { keys: ["t", "right"], help: "open the session's branch tree" },
  "tree.up": { keys: ["up", "k"], help: "tree: move up" },
  "tree.down": { keys: ["down", "j"], help: "tree: move down" },
  "tree.pageUp": { keys: ["pageup", "ctrl+b"], help: "tree: page up" },
  "tree.pageDown": { keys: ["pagedown", "ctrl+f"], help: "tree: page down" },
  "tree.top": { keys: ["g", "home"], help: "tree: first entry" },
  "tree.bottom": { keys: ["G", "end"], help: "tree: last entry" },
  "tree.left": { keys: ["left", "h"], help: "fold a branch point, else go to the branch point above (at the top: back)" },
  "tree.right": { keys: ["right", "l"], help: "unfold, else go down to the next branch point" },
  "tree.prevBranch": { keys: ["["], help: "previous sibling branch" },
  "tree.nextBranch": { keys: ["]"], help: "next sibling branch" },
  "tree.search": { keys: ["/"], help: "search the entries' full text" },
  "tree.nextMatch": { keys: ["n"], help: "next match" },
  "tree.prevMatch": { keys: ["N"], help: "previous match" },
  "tree.filter": { keys: ["o", "ctrl+o"], help: "filter: default → no tools → user only → labelled only → all" },
  "tree.label": { keys: ["L"], help: "set, edit or clear (empty) the entry's label" },
  "tree.resume": { keys: ["enter"], help: "resume the session at this entry" },
  "tree.fork": { keys: ["f"], help: "fork: a new session that ends at this entry" },
  "tree.previewUp": { keys: ["shift+up", "K"], help: "scroll the entry preview up" },
  "tree.previewDown": { keys: ["shift+down", "J"], help: "scroll the entry preview down" },
  "tree.back": { keys: ["escape"], help: "clear the tree search, else back to the list" },
  "tree.close": { keys: ["q"], help: "back to the list" },
  "tree.inputSubmit": { keys: ["enter"], help: "run the search / save the label" },
  "tree.inputCancel": { keys: ["escape"], help: "cancel the search / label" },
  "tree.confirmYes": { keys: ["y", "Y"], help: "write anyway" },
  "tree.confirmNo": { keys: ["n", "N", "escape", "enter"], help: "do not write" },
} as const satisfies Record<string, { keys: readonly string[]; help: string }>;

export type CommandId = keyof typeof COMMANDS;

export type Mode = "list" | "search" | "help" | "dialog" | "rename" | "confirm" | "tree" | "treeSearch" | "treeLabel" | "treeConfirm";

export type TreeCommandId = Extract<CommandId, `tree.${string}`>;

export function isTreeCommand(c: CommandId): c is TreeCommandId {
  return c.startsWith("tree.");
}

const TREE_INPUT: readonly CommandId[] = [
  "app.interrupt",
  "tree.inputSubmit",
  "tree.inputCancel",
  "input.deleteWord",
  "input.deleteBack",
  "input.clear",
  "input.left",
  "input.right",
  "input.home",
  "input.end",
];

/**
 * Commands each mode listens to, in priority order (first match wins).
 * Text modes also receive printable input that no command took.
 */
export const MODE_COMMANDS: Record<Mode, readonly CommandId[]> = {
  list: [
    "app.interrupt",
    "list.up",
    "list.down",
    "list.pageUp",
    "list.pageDown",
    "list.top",
    "list.bottom",
    "search.start",
    "scope.toggle",
    "sort.cycle",
    "search.toggleTools",
    "session.resume",
    "tree.open",
    "session.rename",
    "session.delete",
    "session.undo",
    "session.mark",
    "help.open",
    "app.back",
    "app.quit",
  ],
  search: [
    "app.interrupt",
    "search.submit",
    "search.cancel",
    "list.up",
    "list.down",
    "list.pageUp",
    "list.pageDown",
    "input.deleteWord",
    "input.deleteBack",
    "input.clear",
    "input.left",
    "input.right",
    "input.home",
    "input.end",
    "scope.toggle",
    "sort.cycle",
    "search.toggleTools",
  ],
  help: ["app.interrupt", "help.close", "list.up", "list.down", "list.pageUp", "list.pageDown", "list.top", "list.bottom"],
  dialog: ["app.interrupt", "dialog.confirm", "dialog.cancel"],
  tree: [
    "app.interrupt",
    "tree.up",
    "tree.down",
    "tree.pageUp",
    "tree.pageDown",
    "tree.top",
    "tree.bottom",
    "tree.left",
    "tree.right",
    "tree.prevBranch",
    "tree.nextBranch",
    "tree.search",
    "tree.nextMatch",
    "tree.prevMatch",
    "tree.filter",
    "tree.label",
    "tree.resume",
    "tree.fork",
    "tree.previewUp",
    "tree.previewDown",
    "help.open",
    "tree.back",
    "tree.close",
  ],
  treeSearch: TREE_INPUT,
  treeLabel: TREE_INPUT,
  treeConfirm: ["app.interrupt", "tree.confirmYes", "tree.confirmNo"],
  rename: ["app.interrupt", "rename.submit", "rename.cancel", "input.deleteWord", "input.deleteBack", "input.clear", "input.left", "input.right", "input.home", "input.end"],
  /** A delete confirmation: any key that is not confirm.yes cancels. */
  confirm: ["app.interrupt", "confirm.yes"],
};

/** Modes where unbound printable keys are typed into a text field. */
export const TEXT_MODES: ReadonlySet<Mode> = new Set<Mode>(["search", "rename", "treeSearch", "treeLabel"]);

/*
 * Every command the browser understands, with its default keys and help text.
 * Keys are data so a user keymap can replace them later (a value replaces the
 * defaults; [] unbinds), the way pi's keybindings.json works.
 */

export const COMMANDS = {
  "list.up": { keys: ["up", "k"], help: "move up" },
  "list.down": { keys: ["down", "j"], help: "move down", hint: "move", rank: 1 },
  "list.pageUp": { keys: ["pageup", "ctrl+b"], help: "page up" },
  "list.pageDown": { keys: ["pagedown", "ctrl+f"], help: "page down" },
  "list.top": { keys: ["g", "home"], help: "first session" },
  "list.bottom": { keys: ["G", "end"], help: "last session" },
  "list.previewUp": { keys: ["shift+up", "K"], help: "scroll the session preview up (older messages)" },
  "list.previewDown": { keys: ["shift+down", "J"], help: "scroll the session preview down" },
  "search.start": { keys: ["/"], help: "search (Enter keeps the query, Esc clears it)", hint: "search", rank: 2 },
  "search.submit": { keys: ["enter"], help: "keep the query and return to the list (picker, --print: pick the selected session)", hint: "keep", rank: 1 },
  "search.cancel": { keys: ["escape"], help: "clear the query and return to the list", hint: "clear", rank: 2 },
  "input.deleteBack": { keys: ["backspace"], help: "delete the character before the cursor" },
  "input.deleteWord": { keys: ["ctrl+w", "meta+backspace"], help: "delete the word before the cursor" },
  "input.clear": { keys: ["ctrl+u"], help: "clear the query", hint: "clear all", rank: 6 },
  "input.left": { keys: ["left"], help: "cursor left" },
  "input.right": { keys: ["right"], help: "cursor right" },
  "input.home": { keys: ["ctrl+a"], help: "cursor to start" },
  "input.end": { keys: ["ctrl+e"], help: "cursor to end" },
  "search.toggleTools": { keys: ["ctrl+t", "T"], help: "full-text search: include tool output (on/off)", hint: "tool output", rank: 7 },
  "scope.toggle": { keys: ["tab"], help: "scope: this folder ↔ all folders", hint: "scope", rank: 7 },
  "sort.cycle": { keys: ["s", "ctrl+s"], help: "sort: recent → created → name → messages → size → threaded", hint: "sort", rank: 8 },
  "session.resume": { keys: ["enter"], help: "resume the selected session in pi", hint: "resume", rank: 3 },
  "session.rename": { keys: ["ctrl+r", "r"], help: "rename the session (an empty name clears it)", hint: "rename", rank: 9 },
  "session.delete": { keys: ["ctrl+d", "delete"], help: "delete the session, or the marked ones (to the trash, after a confirmation)", hint: "delete", rank: 10 },
  "session.undo": { keys: ["u"], help: "undo the last delete (or bulk delete)", hint: "undo", rank: 12 },
  "session.mark": { keys: ["space"], help: "mark or unmark the session and move down (Esc clears the marks)", hint: "mark", rank: 11 },
  "rename.submit": { keys: ["enter"], help: "save the new name", hint: "save", rank: 1 },
  "rename.cancel": { keys: ["escape"], help: "cancel the rename", hint: "cancel", rank: 2 },
  "confirm.yes": { keys: ["y", "enter"], help: "confirm a delete (a permanent delete takes y; any other key cancels)", hint: "confirm (any other key cancels)", rank: 1 },
  "help.open": { keys: ["?"], help: "this help", hint: "help", rank: 5 },
  "help.close": { keys: ["escape", "?", "q"], help: "close the help", hint: "close", rank: 1 },
  "dialog.confirm": { keys: ["o"], help: "missing folder: continue in the current folder", hint: "continue here", rank: 2 },
  "dialog.fork": { keys: ["f"], help: "missing folder: fork the session into the current folder", hint: "fork here", rank: 3 },
  "dialog.cancel": { keys: ["escape", "c", "n"], help: "cancel", hint: "cancel", rank: 4 },
  "menu.open": { keys: ["x"], help: "every action on the session, with its key", hint: "actions", rank: 5 },
  "menu.close": { keys: ["escape", "q", "x"], help: "close the action menu", hint: "close", rank: 2 },
  "app.back": { keys: ["escape"], help: "clear the search, else quit" },
  "app.quit": { keys: ["q"], help: "quit", hint: "quit", rank: 6 },
  "app.interrupt": { keys: ["ctrl+c"], help: "quit (cancels a dialog first)" },
  "tree.open": { keys: ["t", "right"], help: "open the session's branch tree", hint: "tree", rank: 4 },
  "tree.up": { keys: ["up", "k"], help: "tree: move up" },
  "tree.down": { keys: ["down", "j"], help: "tree: move down", hint: "move", rank: 1 },
  "tree.pageUp": { keys: ["pageup", "ctrl+b"], help: "tree: page up" },
  "tree.pageDown": { keys: ["pagedown", "ctrl+f"], help: "tree: page down" },
  "tree.top": { keys: ["g", "home"], help: "tree: first entry" },
  "tree.bottom": { keys: ["G", "end"], help: "tree: last entry" },
  "tree.left": { keys: ["left", "h"], help: "fold a branch point, else go to the branch point above (at the top: back)", hint: "fold/up", rank: 3 },
  "tree.right": { keys: ["right", "l"], help: "unfold, else go down to the next branch point" },
  "tree.prevBranch": { keys: ["["], help: "previous sibling branch" },
  "tree.nextBranch": { keys: ["]"], help: "next sibling branch", hint: "branch", rank: 6 },
  "tree.search": { keys: ["/"], help: "search the entries' full text", hint: "search", rank: 4 },
  "tree.nextMatch": { keys: ["n"], help: "next match" },
  "tree.prevMatch": { keys: ["N"], help: "previous match" },
  "tree.filter": { keys: ["o", "ctrl+o"], help: "filter: default → no tools → user only → labelled only → all", hint: "filter", rank: 7 },
  "tree.label": { keys: ["L"], help: "set, edit or clear (empty) the entry's label", hint: "label", rank: 8 },
  "tree.resume": { keys: ["enter"], help: "resume the session at this entry", hint: "resume here", rank: 2 },
  "tree.fork": { keys: ["f"], help: "fork: a new session that ends at this entry", hint: "fork", rank: 9 },
  "tree.original": { keys: ["e"], help: "context edits: show entries as written ↔ as the model sees them" },
  "tree.previewUp": { keys: ["shift+up", "K"], help: "scroll the entry preview up" },
  "tree.previewDown": { keys: ["shift+down", "J"], help: "scroll the entry preview down" },
  "tree.previewPageUp": { keys: ["shift+pageup", "ctrl+u"], help: "entry preview: a page up" },
  "tree.previewPageDown": { keys: ["shift+pagedown", "ctrl+d"], help: "entry preview: a page down" },
  "tree.previewTop": { keys: ["shift+home", "<"], help: "entry preview: its start" },
  "tree.previewBottom": { keys: ["shift+end", ">"], help: "entry preview: its end (a long tool output's last lines)" },
  "tree.back": { keys: ["escape"], help: "clear the tree search, else back to the list" },
  "tree.close": { keys: ["q"], help: "back to the list", hint: "back", rank: 5 },
  "tree.inputSubmit": { keys: ["enter"], help: "run the search / save the label", hint: "ok", rank: 1 },
  "tree.inputCancel": { keys: ["escape"], help: "cancel the search / label", hint: "cancel", rank: 2 },
  "tree.confirmYes": { keys: ["y", "Y"], help: "write anyway", hint: "write anyway", rank: 1 },
  "tree.confirmNo": { keys: ["n", "N", "escape", "enter"], help: "do not write", hint: "cancel", rank: 2 },
} as const satisfies Record<string, Command>;

/**
 * A command: its default keys, its line in the help, and, for the footer, a short `hint`
 * with its `rank` (1 = most important: a narrow footer drops the highest ranks first).
 */
export interface Command {
  keys: readonly string[];
  help: string;
  hint?: string;
  rank?: number;
}

export type CommandId = keyof typeof COMMANDS;

export type Mode = "list" | "search" | "help" | "dialog" | "menu" | "rename" | "confirm" | "tree" | "treeSearch" | "treeLabel" | "treeConfirm";

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
    "list.previewUp",
    "list.previewDown",
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
    "menu.open",
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
  // Choices (↑↓ Enter) belong to the dialog's select list; these are its shortcuts.
  dialog: ["app.interrupt", "dialog.confirm", "dialog.fork", "dialog.cancel"],
  menu: ["app.interrupt", "menu.close"],
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
    "tree.original",
    "tree.previewUp",
    "tree.previewDown",
    "tree.previewPageUp",
    "tree.previewPageDown",
    "tree.previewTop",
    "tree.previewBottom",
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

import type { PiId } from "./piKeys.js";

/*
 * Every command the browser understands, with its default keys and help text.
 * Keys are data so a user keymap can replace them later (a value replaces the
 * defaults; [] unbinds), the way pi's keybindings.json works. A command that does what
 * one of pi's actions does names pi's id (`pi`): pi's keys for it (its default, or the
 * user's keybindings.json) come first, on the same kind of screen as in pi, and this
 * project's own `keys` come after them.
 */

export const COMMANDS = {
  "list.up": { keys: ["k"], pi: ["tui.select.up"], help: "move up" },
  "list.down": { keys: ["j"], pi: ["tui.select.down"], help: "move down", hint: "move", rank: 1 },
  "list.pageUp": { keys: ["ctrl+b"], pi: ["tui.select.pageUp"], help: "page up" },
  "list.pageDown": { keys: ["ctrl+f"], pi: ["tui.select.pageDown"], help: "page down" },
  // No key of its own: Ctrl+U and Ctrl+D are pi's (user-only filter, delete). Bind one in "keys".
  "list.halfUp": { keys: [], help: "half a page up" },
  "list.halfDown": { keys: [], help: "half a page down" },
  "list.top": { keys: ["g", "home"], help: "first session" },
  "list.bottom": { keys: ["G", "end"], help: "last session" },
  "list.previewUp": { keys: ["shift+up", "K"], help: "scroll the session preview up (older messages)" },
  "list.previewDown": { keys: ["shift+down", "J"], help: "scroll the session preview down" },
  "preview.toggle": {
    keys: ["P"],
    help: "hide or show the preview (the list takes the whole width)",
    hint: "preview",
    rank: 12,
  },
  "preview.grow": { keys: ["+", "="], help: "give the preview more room" },
  "preview.shrink": { keys: ["-"], help: "give the preview less room" },
  "search.start": { keys: ["/"], help: "search (Enter keeps the query, Esc clears it)", hint: "search", rank: 2 },
  "search.submit": {
    keys: [],
    pi: ["tui.select.confirm"],
    help: "keep the query and return to the list (picker, --print: pick the selected session)",
    hint: "keep",
    rank: 1,
  },
  "search.cancel": {
    keys: [],
    pi: ["tui.select.cancel"],
    help: "clear the query and return to the list (picker, --print: cancel the pick at once)",
    hint: "clear",
    rank: 2,
  },
  "input.deleteBack": { keys: ["backspace"], help: "delete the character before the cursor" },
  "input.deleteWord": { keys: ["ctrl+w", "meta+backspace"], help: "delete the word before the cursor" },
  "input.clear": { keys: ["ctrl+u"], help: "clear the query", hint: "clear all", rank: 6 },
  "input.left": { keys: ["left"], help: "cursor left" },
  "input.right": { keys: ["right"], help: "cursor right" },
  "input.home": { keys: ["ctrl+a"], help: "cursor to start" },
  "input.end": { keys: ["ctrl+e"], help: "cursor to end" },
  "search.toggleTools": {
    keys: ["ctrl+t"],
    help: "full-text search: include tool output (on/off)",
    hint: "tool output",
    rank: 7,
  },
  "scope.toggle": {
    keys: [],
    pi: ["tui.input.tab"],
    help: "scope: this folder → all folders → every host (with hosts) → this folder",
    hint: "scope",
    rank: 7,
  },
  "sort.cycle": {
    keys: ["s"],
    pi: ["app.session.toggleSort"],
    help: "sort: recent → created → name → messages → size → threaded",
    hint: "sort",
    rank: 8,
  },
  "session.resume": {
    keys: [],
    pi: ["tui.select.confirm"],
    help: "resume the selected session in pi",
    hint: "resume",
    rank: 3,
    acts: "session",
  },
  "session.rename": {
    keys: ["r"],
    pi: ["app.session.rename"],
    help: "rename the session (an empty name clears it)",
    hint: "rename",
    rank: 9,
    acts: "session",
  },
  "session.delete": {
    keys: ["d", "delete"],
    pi: ["app.session.delete"],
    help: "delete the session, or the marked ones (to the trash, after pi's question: Enter or y deletes, Esc or n cancels)",
    hint: "delete",
    rank: 10,
    acts: "sessionOrMarks",
  },
  "session.deleteNoninvasive": {
    keys: [],
    pi: ["app.session.deleteNoninvasive"],
    help: "delete the session as session.delete does, when the query is empty (else it deletes a word of the query)",
    acts: "sessionOrMarks",
  },
  "list.named": {
    keys: [],
    pi: ["app.session.toggleNamedFilter"],
    help: "named sessions only (on/off)",
    hint: "named",
    rank: 11,
  },
  "list.paths": {
    keys: [],
    pi: ["app.session.togglePath"],
    help: "show each session's file path in its row (on/off)",
  },
  "session.undo": { keys: ["u"], help: "undo the last delete (or bulk delete) or fork", hint: "undo", rank: 12 },
  "session.mark": {
    keys: ["space"],
    help: "mark or unmark the session and move down (Esc clears the marks)",
    hint: "mark",
    rank: 11,
    acts: "session",
  },
  "rename.submit": { keys: ["enter"], help: "save the new name", hint: "save", rank: 1 },
  "rename.cancel": { keys: ["escape"], help: "cancel the rename", hint: "cancel", rank: 2 },
  "confirm.delete": {
    keys: ["y"],
    pi: ["tui.select.confirm"],
    help: "delete to the trash: yes (pi's question; other keys are ignored while it asks)",
    hint: "delete",
    rank: 1,
  },
  "confirm.cancel": {
    keys: ["n"],
    pi: ["tui.select.cancel"],
    help: "delete to the trash: no",
    hint: "cancel",
    rank: 2,
  },
  "confirm.yes": {
    keys: ["y"],
    help: "confirm a permanent delete's first question (only y: Enter and any other key cancel)",
    hint: "go on (Enter or any other key cancels)",
    rank: 1,
  },
  // Not y: a held or double-tapped y (key repeat) must not answer both questions of D.
  "confirm.permanent": {
    keys: ["Y"],
    help: "confirm a permanent delete, the second question (only Y: y, Enter and any other key cancel)",
    hint: "delete permanently (any other key cancels)",
    rank: 1,
  },
  "help.open": { keys: ["?"], help: "this help", hint: "help", rank: 5 },
  "help.close": { keys: ["?", "q"], help: "close the help", hint: "close", rank: 1 },
  "help.back": { keys: ["escape"], help: "help: clear the filter, else close the help" },
  "help.filter": {
    keys: ["/"],
    help: "help: show only the keys whose words hold what you type",
    hint: "filter",
    rank: 2,
  },
  "help.filterDone": { keys: ["enter"], help: "help: keep the filter, leave typing", hint: "done", rank: 1 },
  "help.filterCancel": { keys: ["escape"], help: "help: clear the filter", hint: "clear", rank: 2 },
  "skipped.open": {
    keys: ["!"],
    help: "the files the scan skipped (not sessions, unreadable) and why; the header counts them",
    hint: "skipped",
    rank: 14,
  },
  "skipped.close": { keys: ["escape", "q", "!"], help: "close the skipped files", hint: "close", rank: 1 },
  "menu.open": {
    keys: ["x"],
    help: "every action on this screen, with its key",
    hint: "actions",
    rank: 5,
    acts: "session",
  },
  "menu.close": { keys: ["escape", "q", "x"], help: "close the action menu", hint: "close", rank: 2 },
  "app.back": {
    keys: ["escape"],
    help: "step back: clear the search, else the marks (Esc never quits: q does; in the picker Esc cancels the pick)",
  },
  "app.quit": { keys: ["q"], help: "quit", hint: "quit", rank: 6 },
  "app.interrupt": { keys: ["ctrl+c"], help: "quit (cancels a dialog or the action menu first)" },
  "app.suspend": { keys: ["ctrl+z"], help: "suspend to the shell (fg comes back)" },
  "tree.open": { keys: ["t", "right"], help: "open the session's branch tree", hint: "tree", rank: 4, acts: "session" },
  "tree.up": { keys: ["k"], pi: ["tui.select.up"], help: "tree: move up" },
  "tree.down": { keys: ["j"], pi: ["tui.select.down"], help: "tree: move down", hint: "move", rank: 1 },
  "tree.pageUp": { keys: ["ctrl+b"], pi: ["tui.select.pageUp"], help: "tree: page up" },
  "tree.pageDown": { keys: ["ctrl+f"], pi: ["tui.select.pageDown"], help: "tree: page down" },
  "tree.halfUp": { keys: [], help: "tree: half a page up" },
  "tree.halfDown": { keys: [], help: "tree: half a page down" },
  "tree.top": { keys: ["g", "home"], help: "tree: first entry" },
  "tree.bottom": { keys: ["G", "end"], help: "tree: last entry" },
  "tree.left": {
    keys: ["left", "h"],
    help: "fold a branch point, else go to the branch point above (at the top: back)",
    hint: "fold/up",
    rank: 3,
  },
  "tree.right": { keys: ["right", "l"], help: "unfold, else go down to the next branch point" },
  "tree.foldOrUp": {
    keys: [],
    pi: ["app.tree.foldOrUp"],
    help: "fold a branch point, else go to the branch point above (never leaves the tree)",
  },
  "tree.unfoldOrDown": {
    keys: [],
    pi: ["app.tree.unfoldOrDown"],
    help: "unfold, else go down to the next branch point",
  },
  "tree.prevBranch": { keys: ["["], help: "previous sibling branch" },
  "tree.nextBranch": { keys: ["]"], help: "next sibling branch", hint: "branch", rank: 6 },
  "tree.search": { keys: ["/"], help: "search the entries' full text", hint: "search", rank: 4 },
  "tree.nextMatch": { keys: ["n"], help: "next match" },
  "tree.prevMatch": { keys: ["N"], help: "previous match" },
  "tree.filter": {
    keys: ["o"],
    pi: ["app.tree.filter.cycleForward"],
    help: "filter: default → no tools → user only → labelled only → all",
    hint: "filter",
    rank: 7,
  },
  "tree.filterBack": {
    keys: [],
    pi: ["app.tree.filter.cycleBackward"],
    help: "filter: the previous one (all → labelled only → user only → no tools → default)",
  },
  "tree.filterDefault": { keys: [], pi: ["app.tree.filter.default"], help: "filter: default" },
  "tree.filterNoTools": { keys: [], pi: ["app.tree.filter.noTools"], help: "filter: no tools ↔ default" },
  "tree.filterUserOnly": { keys: [], pi: ["app.tree.filter.userOnly"], help: "filter: user messages only ↔ default" },
  "tree.filterLabelled": {
    keys: [],
    pi: ["app.tree.filter.labeledOnly"],
    help: "filter: labelled entries only ↔ default",
  },
  "tree.filterAll": { keys: [], pi: ["app.tree.filter.all"], help: "filter: every entry ↔ default" },
  "tree.label": {
    keys: [],
    pi: ["app.tree.editLabel"],
    help: "set, edit or clear (empty) the entry's label",
    hint: "label",
    rank: 8,
  },
  "tree.labelTimes": {
    keys: [],
    pi: ["app.tree.toggleLabelTimestamp"],
    help: "show when each label was set (on/off)",
  },
  "tree.copy": { keys: [], pi: ["app.message.copy"], help: "copy (OSC 52) the entry's text, as y does" },
  "tree.resume": {
    keys: [],
    pi: ["tui.select.confirm"],
    help: "resume the session at this entry",
    hint: "resume here",
    rank: 2,
  },
  "tree.fork": { keys: ["f"], help: "fork: a new session that ends at this entry", hint: "fork", rank: 9 },
  "tree.original": { keys: ["O"], help: "context edits: show entries as written ↔ as the model sees them" },
  "tree.previewUp": { keys: ["shift+up", "K"], help: "scroll the entry preview up" },
  "tree.previewDown": { keys: ["shift+down", "J"], help: "scroll the entry preview down" },
  "tree.previewPageUp": { keys: ["shift+pageup"], help: "entry preview: a page up" },
  "tree.previewPageDown": { keys: ["shift+pagedown"], help: "entry preview: a page down" },
  "tree.previewTop": { keys: ["shift+home", "<"], help: "entry preview: its start" },
  "tree.previewBottom": { keys: ["shift+end", ">"], help: "entry preview: its end (a long tool output's last lines)" },
  "tree.back": { keys: [], pi: ["tui.select.cancel"], help: "clear the tree search, else back to the list" },
  "tree.close": { keys: ["q"], help: "back to the list", hint: "back", rank: 5 },
  "tree.inputSubmit": { keys: ["enter"], help: "run the search / save the label", hint: "ok", rank: 1 },
  "tree.inputCancel": { keys: ["escape"], help: "cancel the search / label", hint: "cancel", rank: 2 },
  "tree.confirmYes": { keys: ["y", "Y"], help: "write anyway", hint: "write anyway", rank: 1 },
  "tree.confirmNo": { keys: ["n", "N", "escape", "enter"], help: "do not write", hint: "cancel", rank: 2 },
  // The transcript reader (src/browser/reader) and copy / export (src/browser/copy-export).
  "reader.open": {
    keys: ["v"],
    help: "read the conversation (in the tree: the branch through this entry, at it)",
    hint: "read",
    rank: 7,
    acts: "session",
  },
  "reader.down": { keys: ["down", "j"], help: "reader: line down", hint: "scroll", rank: 1 },
  "reader.up": { keys: ["up", "k"], help: "reader: line up" },
  "reader.halfDown": { keys: [], help: "reader: half a page down" },
  "reader.halfUp": { keys: [], help: "reader: half a page up" },
  "reader.pageDown": { keys: ["pagedown", "ctrl+f"], help: "reader: page down" },
  "reader.pageUp": { keys: ["pageup", "ctrl+b"], help: "reader: page up" },
  "reader.top": { keys: ["g", "home"], help: "reader: the beginning" },
  "reader.bottom": { keys: ["G", "end"], help: "reader: the end" },
  "reader.prevMessage": { keys: ["{"], help: "reader: previous message" },
  "reader.nextMessage": { keys: ["}"], help: "reader: next message", hint: "message", rank: 3 },
  "reader.search": {
    keys: ["/"],
    help: "reader: search what is shown (n / N: next / previous match)",
    hint: "search",
    rank: 2,
  },
  "reader.nextMatch": { keys: ["n"], help: "reader: next match" },
  "reader.prevMatch": { keys: ["N"], help: "reader: previous match" },
  "reader.prevBranch": { keys: ["["], help: "reader: previous sibling branch at the nearest branch point" },
  "reader.nextBranch": {
    keys: ["]"],
    help: "reader: next sibling branch at the nearest branch point",
    hint: "branch",
    rank: 7,
  },
  "reader.tool": {
    keys: ["z"],
    help: "reader: fold the tool call under the cursor: collapsed → truncated → full",
    hint: "fold tool",
    rank: 4,
  },
  "reader.allTools": { keys: ["Z"], help: "reader: fold every tool call: collapsed → truncated → full" },
  "reader.thinking": {
    keys: ["R"],
    help: "reader: show / hide the model's reasoning (thinking)",
    hint: "reasoning",
    rank: 6,
  },
  "reader.original": { keys: ["O"], help: "reader: context edits: as the model sees them ↔ as written" },
  "reader.back": { keys: ["escape"], help: "reader: clear the search, else back" },
  "reader.close": { keys: ["q"], help: "reader: back to where it was opened", hint: "back", rank: 5 },
  "reader.inputSubmit": { keys: ["enter"], help: "reader: run the search", hint: "search", rank: 1 },
  "reader.inputCancel": { keys: ["escape"], help: "reader: cancel the search", hint: "cancel", rank: 2 },
  "copy.message": {
    keys: ["y"],
    help: "copy (OSC 52) the message under the cursor / the entry / the session's first message",
    hint: "copy",
    rank: 8,
    acts: "session",
  },
  "copy.path": { keys: ["p"], help: "copy the session file's path", acts: "session" },
  "copy.id": { keys: ["i"], help: "copy the session id", acts: "session" },
  "copy.command": {
    keys: ["c"],
    help: "copy the command that resumes it (cd <cwd> && pi --session <path>)",
    acts: "session",
  },
  "export.open": {
    keys: ["e"],
    help: "export to a new file in the current folder: Markdown, HTML or JSONL",
    hint: "export",
    rank: 9,
    acts: "session",
  },
  "export.md": { keys: ["m"], help: "export: Markdown of the branch", hint: "markdown", rank: 1 },
  "export.mdAll": { keys: ["a"], help: "export: Markdown of every branch", hint: "all branches", rank: 2 },
  "export.html": { keys: ["h"], help: "export: one self-contained HTML page", hint: "html", rank: 3 },
  "export.jsonl": {
    keys: ["l"],
    help: "export: the branch as a session file pi opens (JSONL)",
    hint: "jsonl",
    rank: 4,
  },
  "export.cancel": { keys: ["escape", "q"], help: "export: cancel", hint: "cancel", rank: 5 },
  // Not Ctrl+N: that is pi's named-only filter.
  "session.new": { keys: ["a"], help: "start a new pi session in the selected session's folder", acts: "session" },
  "session.deletePermanently": {
    keys: ["D"],
    help: "delete the session (or the marked ones) permanently, after two confirmations (y, then capital Y)",
    acts: "sessionOrMarks",
  },
  "usage.open": {
    keys: ["U"],
    help: "usage: tokens and cost of the listed sessions by day, folder or model",
    hint: "usage",
    rank: 9,
  },
  "usage.byDay": { keys: ["1"], help: "usage: by day" },
  "usage.byFolder": { keys: ["2"], help: "usage: by folder" },
  "usage.byModel": { keys: ["3"], help: "usage: by model" },
  "usage.nextBy": {
    keys: ["right", "l"],
    help: "usage: next grouping (day → folder → model)",
    hint: "day/folder/model",
    rank: 1,
  },
  "usage.prevBy": { keys: ["left", "h"], help: "usage: previous grouping" },
  "usage.metric": { keys: ["M"], help: "usage: bars measure cost ↔ tokens", hint: "cost/tokens", rank: 2 },
  "usage.up": { keys: ["up", "k"], help: "usage: scroll up" },
  "usage.down": { keys: ["down", "j"], help: "usage: scroll down", hint: "scroll", rank: 3 },
  "usage.pageUp": { keys: ["pageup", "ctrl+b"], help: "usage: page up" },
  "usage.pageDown": { keys: ["pagedown", "ctrl+f"], help: "usage: page down" },
  "usage.halfUp": { keys: [], help: "usage: half a page up" },
  "usage.halfDown": { keys: [], help: "usage: half a page down" },
  "usage.top": { keys: ["g", "home"], help: "usage: first row" },
  "usage.bottom": { keys: ["G", "end"], help: "usage: last row" },
  "usage.close": { keys: ["escape", "q", "U"], help: "usage: back to the list", hint: "back", rank: 4 },
  "trash.open": {
    keys: ["X"],
    help: "the trash: this store's deleted sessions, newest first, to restore or delete for good",
    hint: "trash",
    rank: 13,
  },
  "trash.up": { keys: ["up", "k"], help: "trash: move up" },
  "trash.down": { keys: ["down", "j"], help: "trash: move down", hint: "move", rank: 3 },
  "trash.pageUp": { keys: ["pageup", "ctrl+b"], help: "trash: page up" },
  "trash.pageDown": { keys: ["pagedown", "ctrl+f"], help: "trash: page down" },
  "trash.halfUp": { keys: [], help: "trash: half a page up" },
  "trash.halfDown": { keys: [], help: "trash: half a page down" },
  "trash.top": { keys: ["g", "home"], help: "trash: newest" },
  "trash.bottom": { keys: ["G", "end"], help: "trash: oldest" },
  "trash.restore": {
    keys: ["u"],
    help: "trash: put the session back where it was (undelete)",
    hint: "restore",
    rank: 1,
  },
  "trash.purge": {
    keys: ["D"],
    help: "trash: delete the session for good, after two confirmations (y, then capital Y)",
    hint: "delete for good",
    rank: 2,
  },
  "trash.close": { keys: ["escape", "q", "X"], help: "trash: back to the list", hint: "back", rank: 4 },
} as const satisfies Record<string, Command>;

/**
 * A command: its default keys, its line in the help, and, for the footer, a short `hint`
 * with its `rank` (1 = most important: a narrow footer drops the highest ranks first).
 */
export interface Command {
  /** This project's own default keys (after pi's, when the command names a pi id). */
  keys: readonly string[];
  /** pi's ids for the same action on the same kind of screen: their keys come first, and the help names them. */
  pi?: readonly PiId[];
  help: string;
  hint?: string;
  rank?: number;
  /**
   * In the list, what the command acts on: the selected session (`session`), or that or the
   * marked ones (`sessionOrMarks`). With none it cannot act: the key says why and the footer
   * leaves it out (src/browser/app/disabledReason.ts).
   */
  acts?: "session" | "sessionOrMarks";
}

export type CommandId = keyof typeof COMMANDS;

export type Mode =
  | "list"
  | "search"
  | "help"
  | "helpFilter"
  | "menu"
  | "skipped"
  | "rename"
  | "confirmDelete"
  | "confirm"
  | "confirmPermanent"
  | "tree"
  | "treeSearch"
  | "treeLabel"
  | "treeConfirm"
  | "reader"
  | "readerSearch"
  | "export"
  | "usage"
  | "trash"
  | "trashConfirm"
  | "trashConfirmPermanent";

export type TreeCommandId = Extract<CommandId, `tree.${string}`>;

export function isTreeCommand(c: CommandId): c is TreeCommandId {
  return c.startsWith("tree.");
}

const TREE_INPUT: readonly CommandId[] = [
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

/** The keys that move the list's cursor (the help's too). With no row they have nothing to move to (disabledReason). */
export const LIST_MOVES: readonly CommandId[] = [
  "list.up",
  "list.down",
  "list.pageUp",
  "list.pageDown",
  "list.halfUp",
  "list.halfDown",
  "list.top",
  "list.bottom",
];
/** The same in the trash. */
export const TRASH_MOVES: readonly CommandId[] = [
  "trash.up",
  "trash.down",
  "trash.pageUp",
  "trash.pageDown",
  "trash.halfUp",
  "trash.halfDown",
  "trash.top",
  "trash.bottom",
];

/**
 * Commands each mode listens to, in priority order (first match wins).
 * Text modes also receive printable input that no command took.
 */
const OWN_COMMANDS: Record<Mode, readonly CommandId[]> = {
  list: [
    ...LIST_MOVES,
    "list.previewUp",
    "list.previewDown",
    "preview.toggle",
    "preview.grow",
    "preview.shrink",
    "search.start",
    "scope.toggle",
    "sort.cycle",
    "search.toggleTools",
    "session.resume",
    "tree.open",
    "usage.open",
    "session.rename",
    "session.delete",
    "session.deleteNoninvasive",
    "list.named",
    "list.paths",
    "session.undo",
    "session.mark",
    "reader.open",
    "copy.message",
    "copy.path",
    "copy.id",
    "copy.command",
    "export.open",
    "session.new",
    "session.deletePermanently",
    "trash.open",
    "skipped.open",
    "help.open",
    "menu.open",
    "app.back",
    "app.quit",
  ],
  search: [
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
    // pi's picker keys (a typed letter such as d or r stays text: only their chords act here).
    "session.delete",
    "session.deleteNoninvasive",
    "session.rename",
    "list.named",
    "list.paths",
    "scope.toggle",
    "sort.cycle",
    "search.toggleTools",
  ],
  help: ["help.back", "help.close", "help.filter", ...LIST_MOVES],
  // While the filter is typed, the keys that are not letters still move the help (as in search).
  helpFilter: [
    "help.filterDone",
    "help.filterCancel",
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
  ],
  menu: ["menu.close"],
  skipped: ["skipped.close", ...LIST_MOVES],
  tree: [
    "tree.up",
    "tree.down",
    "tree.pageUp",
    "tree.pageDown",
    "tree.halfUp",
    "tree.halfDown",
    "tree.top",
    "tree.bottom",
    "tree.left",
    "tree.right",
    "tree.foldOrUp",
    "tree.unfoldOrDown",
    "tree.prevBranch",
    "tree.nextBranch",
    "tree.search",
    "tree.nextMatch",
    "tree.prevMatch",
    "tree.filter",
    "tree.filterBack",
    "tree.filterDefault",
    "tree.filterNoTools",
    "tree.filterUserOnly",
    "tree.filterLabelled",
    "tree.filterAll",
    "tree.label",
    "tree.labelTimes",
    "tree.copy",
    "tree.resume",
    "tree.fork",
    "tree.original",
    "tree.previewUp",
    "tree.previewDown",
    "tree.previewPageUp",
    "tree.previewPageDown",
    "tree.previewTop",
    "tree.previewBottom",
    "reader.open",
    "copy.message",
    "copy.path",
    "copy.id",
    "copy.command",
    "export.open",
    "help.open",
    "menu.open",
    "tree.back",
    "tree.close",
  ],
  reader: [
    "reader.down",
    "reader.up",
    "reader.halfDown",
    "reader.halfUp",
    "reader.pageDown",
    "reader.pageUp",
    "reader.top",
    "reader.bottom",
    "reader.prevMessage",
    "reader.nextMessage",
    "reader.search",
    "reader.nextMatch",
    "reader.prevMatch",
    "reader.prevBranch",
    "reader.nextBranch",
    "reader.tool",
    "reader.allTools",
    "reader.thinking",
    "reader.original",
    "copy.message",
    "copy.path",
    "copy.id",
    "copy.command",
    "export.open",
    "help.open",
    "menu.open",
    "reader.back",
    "reader.close",
  ],
  readerSearch: [
    "reader.inputSubmit",
    "reader.inputCancel",
    "input.deleteWord",
    "input.deleteBack",
    "input.clear",
    "input.left",
    "input.right",
    "input.home",
    "input.end",
  ],
  // Choices (↑↓ Enter) belong to the dialog's select list; these are its shortcuts.
  export: ["export.md", "export.mdAll", "export.html", "export.jsonl", "export.cancel"],
  treeSearch: TREE_INPUT,
  treeLabel: TREE_INPUT,
  treeConfirm: ["tree.confirmYes", "tree.confirmNo"],
  usage: [
    "usage.byDay",
    "usage.byFolder",
    "usage.byModel",
    "usage.nextBy",
    "usage.prevBy",
    "usage.metric",
    "usage.up",
    "usage.down",
    "usage.pageUp",
    "usage.pageDown",
    "usage.halfUp",
    "usage.halfDown",
    "usage.top",
    "usage.bottom",
    "help.open",
    "usage.close",
  ],
  rename: [
    "rename.submit",
    "rename.cancel",
    "input.deleteWord",
    "input.deleteBack",
    "input.clear",
    "input.left",
    "input.right",
    "input.home",
    "input.end",
  ],
  /** A delete to the trash, pi's question: Enter or y deletes, Esc or n cancels, other keys are ignored. */
  confirmDelete: ["confirm.delete", "confirm.cancel"],
  /** A permanent delete's first question: any key that is not confirm.yes cancels. */
  confirm: ["confirm.yes"],
  confirmPermanent: ["confirm.permanent"],
  trash: [...TRASH_MOVES, "trash.restore", "trash.purge", "help.open", "trash.close"],
  /** A delete-for-good confirmation in the trash: as a delete's, only y goes on. */
  trashConfirm: ["confirm.yes"],
  /** Its second question: Y, as a permanent delete's (a repeated y cancels). */
  trashConfirmPermanent: ["confirm.permanent"],
};

/** Keys that work the same on every screen and in every dialog: Ctrl+C and Ctrl+Z. */
const EVERY_MODE: readonly CommandId[] = ["app.interrupt", "app.suspend"];

/** The commands each mode listens to: the ones every mode has, then its own. */
export const MODE_COMMANDS: Record<Mode, readonly CommandId[]> = withEveryMode(OWN_COMMANDS);

function withEveryMode(own: Record<Mode, readonly CommandId[]>): Record<Mode, readonly CommandId[]> {
  const out = {} as Record<Mode, readonly CommandId[]>;
  for (const mode of Object.keys(own) as Mode[]) out[mode] = [...EVERY_MODE, ...own[mode]];
  return out;
}

/** Modes where unbound printable keys are typed into a text field. */
export const TEXT_MODES: ReadonlySet<Mode> = new Set<Mode>([
  "search",
  "rename",
  "treeSearch",
  "treeLabel",
  "readerSearch",
  "helpFilter",
]);

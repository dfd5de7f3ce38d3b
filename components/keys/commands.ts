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
  "search.submit": { keys: ["enter"], help: "keep the query and return to the list" },
  "search.cancel": { keys: ["escape"], help: "clear the query and return to the list" },
  "input.deleteBack": { keys: ["backspace"], help: "delete the character before the cursor" },
  "input.deleteWord": { keys: ["ctrl+w", "meta+backspace"], help: "delete the word before the cursor" },
  "input.clear": { keys: ["ctrl+u"], help: "clear the query" },
  "input.left": { keys: ["left"], help: "cursor left" },
  "input.right": { keys: ["right"], help: "cursor right" },
  "input.home": { keys: ["ctrl+a"], help: "cursor to start" },
  "input.end": { keys: ["ctrl+e"], help: "cursor to end" },
  "scope.toggle": { keys: ["tab"], help: "scope: this folder ↔ all folders" },
  "sort.cycle": { keys: ["s", "ctrl+s"], help: "sort: recent → created → name → messages → size → threaded" },
  "session.resume": { keys: ["enter"], help: "resume the selected session in pi" },
  "help.open": { keys: ["?"], help: "this help" },
  "help.close": { keys: ["escape", "?", "q"], help: "close the help" },
  "dialog.confirm": { keys: ["enter", "o"], help: "confirm" },
  "dialog.cancel": { keys: ["escape", "c", "n"], help: "cancel" },
  "app.back": { keys: ["escape"], help: "clear the search, else quit" },
  "app.quit": { keys: ["q"], help: "quit" },
  "app.interrupt": { keys: ["ctrl+c"], help: "quit (cancels a dialog first)" },
} as const satisfies Record<string, { keys: readonly string[]; help: string }>;

export type CommandId = keyof typeof COMMANDS;

export type Mode = "list" | "search" | "help" | "dialog";

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
    "session.resume",
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
  ],
  help: ["app.interrupt", "help.close", "list.up", "list.down", "list.pageUp", "list.pageDown", "list.top", "list.bottom"],
  dialog: ["app.interrupt", "dialog.confirm", "dialog.cancel"],
};

/** Modes where unbound printable keys are typed into a text field. */
export const TEXT_MODES: ReadonlySet<Mode> = new Set<Mode>(["search"]);

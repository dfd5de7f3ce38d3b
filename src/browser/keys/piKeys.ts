/*
 * pi's own key bindings: the ids of the actions pi-sessions shares with pi's `/resume` and
 * `/tree`, with pi 1.6.0's default keys (its src/core/keybindings.ts and pi-tui's
 * keybindings.ts, as on Linux and macOS outside WSL), and the old flat names pi still
 * reads in keybindings.json (KEYBINDING_NAME_MIGRATIONS). A command of the registry that
 * does what one of these does names it (`pi` in commands.ts): its keys are pi's, the
 * user's keybindings.json included, before this project's own.
 */

export const PI_DEFAULT_KEYS = {
  "tui.select.up": ["up"],
  "tui.select.down": ["down"],
  "tui.select.pageUp": ["pageUp"],
  "tui.select.pageDown": ["pageDown"],
  "tui.select.confirm": ["enter"],
  "tui.select.cancel": ["escape", "ctrl+c"],
  "tui.input.tab": ["tab"],
  "app.session.toggleSort": ["ctrl+s"],
  "app.session.toggleNamedFilter": ["ctrl+n"],
  "app.session.togglePath": ["ctrl+p"],
  "app.session.rename": ["ctrl+r"],
  "app.session.delete": ["ctrl+d"],
  "app.session.deleteNoninvasive": ["ctrl+backspace"],
  "app.message.copy": ["ctrl+x"],
  "app.tree.foldOrUp": ["ctrl+left", "alt+left"],
  "app.tree.unfoldOrDown": ["ctrl+right", "alt+right"],
  "app.tree.editLabel": ["shift+l"],
  "app.tree.toggleLabelTimestamp": ["shift+t"],
  "app.tree.filter.default": ["ctrl+d"],
  "app.tree.filter.noTools": ["ctrl+t"],
  "app.tree.filter.userOnly": ["ctrl+u"],
  "app.tree.filter.labeledOnly": ["ctrl+l"],
  "app.tree.filter.all": ["ctrl+a"],
  "app.tree.filter.cycleForward": ["ctrl+o"],
  "app.tree.filter.cycleBackward": ["shift+ctrl+o"],
} as const satisfies Record<string, readonly string[]>;

export type PiId = keyof typeof PI_DEFAULT_KEYS;

export function isPiId(id: string): id is PiId {
  return Object.hasOwn(PI_DEFAULT_KEYS, id);
}

/** pi's old flat names for these ids, which its keybindings.json still accepts (the new name wins when both are set). */
export const PI_LEGACY_NAMES: Readonly<Record<string, PiId>> = {
  selectUp: "tui.select.up",
  selectDown: "tui.select.down",
  selectPageUp: "tui.select.pageUp",
  selectPageDown: "tui.select.pageDown",
  selectConfirm: "tui.select.confirm",
  selectCancel: "tui.select.cancel",
  tab: "tui.input.tab",
  treeFoldOrUp: "app.tree.foldOrUp",
  treeUnfoldOrDown: "app.tree.unfoldOrDown",
  treeEditLabel: "app.tree.editLabel",
  treeToggleLabelTimestamp: "app.tree.toggleLabelTimestamp",
  toggleSessionPath: "app.session.togglePath",
  toggleSessionSort: "app.session.toggleSort",
  toggleSessionNamedFilter: "app.session.toggleNamedFilter",
  renameSession: "app.session.rename",
  deleteSession: "app.session.delete",
  deleteSessionNoninvasive: "app.session.deleteNoninvasive",
};

/** The user's keys for pi's ids (from keybindings.json): an id's list replaces pi's default; [] unbinds. */
export type PiBindings = Partial<Record<PiId, readonly string[]>>;

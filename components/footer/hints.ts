import { displayWidth, truncateToWidth } from "../../src/text/sanitize.js";
import { type Command, COMMANDS, type CommandId, type Mode, MODE_COMMANDS } from "../../src/browser/keys/commands.js";
import { type Keymap, keysLabel } from "../../src/browser/keys/keymap.js";

export interface Hint {
  command: CommandId;
  label: string;
  /** 1 = most important; a narrow footer drops the highest ranks first. */
  rank: number;
}

/** In picker mode Enter picks rather than resumes. */
const PICK_LABELS: Partial<Record<CommandId, string>> = {
  "session.resume": "pick",
  "search.submit": "pick",
  "search.cancel": "cancel",
  "tree.resume": "pick here",
};

/** A command shared by several questions or fields: its hint says what it does in each, as the dialog does. */
const MODE_LABELS: Partial<Record<Mode, Partial<Record<CommandId, string>>>> = {
  treeSearch: { "tree.inputSubmit": "search" },
  treeLabel: { "tree.inputSubmit": "save" },
  trashConfirm: { "confirm.yes": "go on (Enter or any other key cancels)" },
  trashConfirmPermanent: { "confirm.permanent": "delete for good (any other key cancels)" },
};

/**
 * The footer's hints for a mode, from the command registry, most important first; none for
 * a command that cannot act now (`disabled`: an empty list has no session to resume).
 */
export function hintsFor(mode: Mode, print: boolean, disabled: (c: CommandId) => boolean = () => false): Hint[] {
  const hints: Hint[] = [];
  for (const id of MODE_COMMANDS[mode]) {
    const c: Command = COMMANDS[id];
    if (!c.hint || disabled(id)) continue;
    hints.push({
      command: id,
      label: (print && PICK_LABELS[id]) || MODE_LABELS[mode]?.[id] || c.hint,
      rank: c.rank ?? 99,
    });
  }
  return hints.sort((a, b) => a.rank - b.rank);
}

/**
 * Fit hints to the width without cutting words: the keys and labels, then one key per
 * hint, then the least important hints dropped one by one (as Codex's footer does).
 * Keys come from the keymap, so a remapped key shows its new binding; unbound ones go.
 */
export function footerText(hints: readonly Hint[], keymap: Keymap, width: number, mode?: Mode): string {
  const withKeys = hints
    .map((h) => ({
      keys: keysLabel(keymap, h.command, 2, mode),
      short: keysLabel(keymap, h.command, 1, mode),
      label: h.label,
    }))
    .filter((h) => h.keys);
  const full = withKeys.map((h) => `${h.keys} ${h.label}`).join("  ");
  if (displayWidth(full) <= width) return full;
  for (let n = withKeys.length; n > 0; n--) {
    const compact = withKeys
      .slice(0, n)
      .map((h) => `${h.short} ${h.label}`)
      .join("  ");
    if (displayWidth(compact) <= width) return compact;
  }
  return truncateToWidth(withKeys[0] ? `${withKeys[0].short} ${withKeys[0].label}` : "", width);
}

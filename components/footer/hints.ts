import { displayWidth, truncateToWidth } from "../../src/text/sanitize.js";
import type { CommandId, Mode } from "../keys/commands.js";
import { type Keymap, keysLabel } from "../keys/keymap.js";
import { treeHints } from "../tree/treeHints.js";

export interface Hint {
  command: CommandId;
  label: string;
}

export function hintsFor(mode: Mode, print: boolean): Hint[] {
  switch (mode) {
    case "list":
      return [
        { command: "list.down", label: "move" },
        { command: "search.start", label: "search" },
        { command: "scope.toggle", label: "scope" },
        { command: "sort.cycle", label: "sort" },
        { command: "session.resume", label: print ? "pick" : "resume" },
        { command: "help.open", label: "help" },
        { command: "app.quit", label: "quit" },
      ];
    case "search":
      return [
        { command: "search.submit", label: "keep" },
        { command: "search.cancel", label: "clear" },
        { command: "list.down", label: "move" },
        { command: "input.clear", label: "clear all" },
        { command: "search.toggleTools", label: "tool output" },
      ];
    case "help":
      return [
        { command: "list.down", label: "scroll" },
        { command: "help.close", label: "close" },
      ];
    case "rename":
      return [
        { command: "rename.submit", label: "save" },
        { command: "rename.cancel", label: "cancel" },
        { command: "input.clear", label: "clear" },
      ];
    case "confirm":
      return [{ command: "confirm.yes", label: "confirm (any other key cancels)" }];
    case "tree":
    case "treeSearch":
    case "treeLabel":
    case "treeConfirm":
      return treeHints(mode, print);
    case "dialog":
      return [
        { command: "dialog.confirm", label: "open here" },
        { command: "dialog.cancel", label: "cancel" },
      ];
  }
}

/**
 * Fit hints to the width, degrading wide → compact → keys only → cut.
 * Keys come from the keymap, so a remapped key shows its new binding.
 */
export function footerText(hints: readonly Hint[], keymap: Keymap, width: number, mode?: Mode): string {
  const withKeys = hints.map((h) => ({ keys: keysLabel(keymap, h.command, 2, mode), short: keysLabel(keymap, h.command, 1, mode), label: h.label })).filter((h) => h.keys);
  const candidates = [
    withKeys.map((h) => `${h.keys} ${h.label}`).join("  "),
    withKeys.map((h) => `${h.short} ${h.label}`).join("  "),
    withKeys.map((h) => `${h.short} ${h.label}`).join(" "),
    withKeys.map((h) => h.short).join(" "),
  ];
  for (const c of candidates) if (displayWidth(c) <= width) return c;
  return truncateToWidth(candidates[candidates.length - 1], width);
}

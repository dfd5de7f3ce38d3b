import type { Hint } from "../footer/hints.js";
import type { Mode } from "../keys/commands.js";

/** Footer hints in the tree's modes (the footer fits them to the width). */
export function treeHints(mode: Mode, print: boolean): Hint[] {
  switch (mode) {
    case "treeSearch":
      return [
        { command: "tree.inputSubmit", label: "search" },
        { command: "tree.inputCancel", label: "cancel" },
        { command: "input.clear", label: "clear" },
      ];
    case "treeLabel":
      return [
        { command: "tree.inputSubmit", label: "save (empty clears)" },
        { command: "tree.inputCancel", label: "cancel" },
      ];
    case "treeConfirm":
      return [
        { command: "tree.confirmYes", label: "write anyway" },
        { command: "tree.confirmNo", label: "cancel" },
      ];
    default:
      return [
        { command: "tree.down", label: "move" },
        { command: "tree.left", label: "fold/up" },
        { command: "tree.nextBranch", label: "branch" },
        { command: "tree.search", label: "search" },
        { command: "tree.filter", label: "filter" },
        { command: "tree.label", label: "label" },
        { command: "tree.resume", label: print ? "pick here" : "resume here" },
        { command: "tree.fork", label: "fork" },
        { command: "help.open", label: "help" },
        { command: "tree.close", label: "back" },
      ];
  }
}

import type { Layer } from "../../src/browser/app/appReducer.js";
import type { TreeState } from "../../src/browser/tree/treeState.js";

/**
 * Whether DialogHost draws anything for this layer: a screen's own layer (the reader, the
 * tree) has no dialog, except the tree's write-anyway question and label field. A screen
 * with a dialog up dims and hides its own messages.
 */
export function dialogUp(layer: Layer | undefined, tree?: TreeState | null): boolean {
  switch (layer?.kind) {
    case undefined:
    case "search":
    case "reader":
      return false;
    case "tree":
      return !!tree && (!!tree.confirm || tree.input?.kind === "label");
    default:
      return true;
  }
}

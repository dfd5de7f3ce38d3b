import { describe, expect, it } from "vitest";
import type { TreeState } from "../../src/browser/tree/treeState.js";
import { dialogUp } from "./dialogUp.js";

describe("dialogUp", () => {
  it("is true for a dialog layer, false for a screen's own, and for the tree only while it asks", () => {
    const tree = { confirm: null, input: null } as unknown as TreeState;
    expect(dialogUp(undefined)).toBe(false);
    expect(dialogUp({ kind: "search" })).toBe(false);
    expect(dialogUp({ kind: "reader" })).toBe(false);
    expect(dialogUp({ kind: "help" })).toBe(true);
    expect(dialogUp({ kind: "tree" }, tree)).toBe(false);
    expect(dialogUp({ kind: "tree" }, { ...tree, input: { kind: "search" } } as unknown as TreeState)).toBe(false);
    expect(dialogUp({ kind: "tree" }, { ...tree, input: { kind: "label" } } as unknown as TreeState)).toBe(true);
    expect(dialogUp({ kind: "tree" }, { ...tree, confirm: { op: "label" } } as unknown as TreeState)).toBe(true);
  });
});

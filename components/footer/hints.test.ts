import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/text/sanitize.js";
import { createKeymap, DEFAULT_KEYMAP } from "../../src/browser/keys/keymap.js";
import { footerText, hintsFor } from "./hints.js";

describe("hintsFor", () => {
  it("names what Enter does in the tree's two fields: search, or save the label (as its dialog says)", () => {
    const enter = (mode: "treeSearch" | "treeLabel") =>
      hintsFor(mode, false).find((h) => h.command === "tree.inputSubmit");
    expect(enter("treeSearch")?.label).toBe("search");
    expect(enter("treeLabel")?.label).toBe("save");
  });
  it("says what y and Y do in the trash's two questions, as the dialog does", () => {
    expect(hintsFor("trashConfirm", false).map((h) => h.label)).toEqual(["go on (Enter or any other key cancels)"]);
    expect(hintsFor("trashConfirmPermanent", false).map((h) => h.label)).toEqual([
      "delete for good (any other key cancels)",
    ]);
  });
});

describe("footerText", () => {
  const hints = hintsFor("list", false);
  it("comes from the command registry, most important first", () => {
    expect(hints.map((h) => h.label).slice(0, 5)).toEqual(["move", "search", "resume", "tree", "help"]);
  });
  it("shows keys and labels when wide", () => {
    expect(footerText(hints, DEFAULT_KEYMAP, 300)).toMatch(
      /^↓\/j move {2}\/ search {2}Enter resume {2}t\/→ tree {2}\? help/,
    );
  });
  it("drops the least important hints first and never cuts a word, down to 80 columns and below", () => {
    for (const w of [120, 80, 60, 40, 20]) {
      const t = footerText(hints, DEFAULT_KEYMAP, w);
      expect(displayWidth(t)).toBeLessThanOrEqual(w);
      // every hint shown is whole: "key label"
      for (const part of t.split("  ")) expect(hints.some((h) => part.endsWith(` ${h.label}`))).toBe(true);
    }
    const at80 = footerText(hints, DEFAULT_KEYMAP, 80);
    expect(at80).toContain("? help");
    expect(at80).not.toContain("undo"); // least important
  });
  it("follows the keymap and skips unbound commands", () => {
    const km = createKeymap({ "app.quit": [], "list.down": ["n"] });
    const t = footerText(hints, km, 300);
    expect(t).toContain("n move");
    expect(t).not.toContain("quit");
  });
  it("leaves typed keys out of the search hints", () => {
    expect(footerText(hintsFor("search", false), DEFAULT_KEYMAP, 200, "search")).toBe(
      "Enter keep  ↓ move  Esc clear  Ctrl+U clear all  Tab scope  Ctrl+T tool output  Ctrl+S sort  Ctrl+R rename  Ctrl+D delete  Ctrl+N named",
    );
  });
  it("says what answers pi's delete question, and that Esc cancels the picker", () => {
    expect(footerText(hintsFor("confirmDelete", false), DEFAULT_KEYMAP, 200, "confirmDelete")).toBe(
      "Enter/y delete  Esc/n cancel",
    );
    expect(footerText(hintsFor("search", true), DEFAULT_KEYMAP, 200, "search")).toContain("Esc cancel");
  });
  it("says pick in print mode", () => {
    expect(footerText(hintsFor("list", true), DEFAULT_KEYMAP, 200)).toContain("Enter pick");
    expect(footerText(hintsFor("tree", true), DEFAULT_KEYMAP, 200)).toContain("Enter pick here");
  });
});

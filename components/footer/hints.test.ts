import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/text/sanitize.js";
import { createKeymap, DEFAULT_KEYMAP } from "../keys/keymap.js";
import { footerText, hintsFor } from "./hints.js";

describe("footerText", () => {
  const hints = hintsFor("list", false);
  it("shows keys and labels when wide", () => {
    expect(footerText(hints, DEFAULT_KEYMAP, 200)).toBe("↓/j move  / search  Tab scope  s/Ctrl+S sort  Enter resume  ? help  q quit");
  });
  it("degrades to compact, then keys only, then cuts", () => {
    const compact = footerText(hints, DEFAULT_KEYMAP, 70);
    expect(compact).toContain("↓ move");
    expect(displayWidth(compact)).toBeLessThanOrEqual(70);
    expect(footerText(hints, DEFAULT_KEYMAP, 20)).toBe("↓ / Tab s Enter ? q");
    expect(displayWidth(footerText(hints, DEFAULT_KEYMAP, 10))).toBeLessThanOrEqual(10);
  });
  it("follows the keymap and skips unbound commands", () => {
    const km = createKeymap({ "app.quit": [], "list.down": ["n"] });
    const t = footerText(hints, km, 200);
    expect(t).toContain("n move");
    expect(t).not.toContain("quit");
  });
  it("leaves typed keys out of the search hints", () => {
    expect(footerText(hintsFor("search", false), DEFAULT_KEYMAP, 200, "search")).toBe("Enter keep  Esc clear  ↓ move  Ctrl+U clear all  Ctrl+T tool output");
  });
  it("says pick in print mode", () => {
    expect(footerText(hintsFor("list", true), DEFAULT_KEYMAP, 200)).toContain("Enter pick");
  });
});

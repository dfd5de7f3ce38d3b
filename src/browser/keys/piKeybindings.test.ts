import { describe, expect, it } from "vitest";
import { key } from "../../../test/helpers/keys.js";
import { commandFor } from "./keymap.js";
import { parsePiKeybindings } from "./piKeybindings.js";
import { userKeymap } from "./userKeymap.js";

const P = "/home/u/.pi/agent/keybindings.json";

describe("the user's pi keybindings.json, as pi 1.6.0 reads it", () => {
  it("takes pi's ids: one key or a list; [] unbinds; $schema and ids with no action here are passed over", () => {
    const r = parsePiKeybindings(
      JSON.stringify({
        $schema: "https://pi.dev/schemas/keybindings.schema.json",
        "app.session.delete": "ctrl+x",
        "app.tree.filter.cycleBackward": ["shift+ctrl+o", "alt+o"],
        "app.session.rename": [],
        "app.model.select": "ctrl+l",
      }),
      P,
    );
    expect(r).toEqual({
      bindings: {
        "app.session.delete": ["ctrl+x"],
        "app.tree.filter.cycleBackward": ["shift+ctrl+o", "alt+o"],
        "app.session.rename": [],
      },
    });
  });
  it("reads pi's old flat names; the new name wins when both are there", () => {
    expect(parsePiKeybindings('{"deleteSession": "ctrl+g", "selectConfirm": "tab"}', P).bindings).toEqual({
      "app.session.delete": ["ctrl+g"],
      "tui.select.confirm": ["tab"],
    });
    expect(parsePiKeybindings('{"deleteSession": "ctrl+g", "app.session.delete": "ctrl+e"}', P).bindings).toEqual({
      "app.session.delete": ["ctrl+e"],
    });
  });
  it("a bad file is one sanitised line of warning and pi's defaults, never a throw", () => {
    for (const raw of ["{ not json", "[1, 2]", "null", '"ctrl+d"', ""]) {
      const r = parsePiKeybindings(raw, P);
      expect(r.bindings).toEqual({});
      expect(r.warning).toMatch(/^pi keybindings \/home\/u\/\.pi\/agent\/keybindings\.json: /);
      expect(r.warning).not.toMatch(/[\n\r\x1b]/);
    }
    // A value pi would not take: that id keeps pi's default, the rest applies; one line says how many.
    const r = parsePiKeybindings(
      JSON.stringify({
        "app.session.delete": "Ctrl+D\u001b[31m",
        "app.session.rename": 5,
        "app.session.toggleSort": "f5",
        "app.session.togglePath": "ctrl+y",
      }),
      P,
    );
    expect(r.bindings).toEqual({ "app.session.toggleSort": [], "app.session.togglePath": ["ctrl+y"] });
    expect(r.warning?.split("\n")).toHaveLength(1);
    expect(r.warning).toContain("(+2 more)");
    expect(r.warning).not.toContain("\u001b");
  });
  it("moving app.session.delete in pi moves it here; the config's keys still win", () => {
    const pi = parsePiKeybindings('{"app.session.delete": "ctrl+e"}', P).bindings;
    const { keymap } = userKeymap({}, pi);
    expect(commandFor(keymap, "list", "e", key({ ctrl: true }))).toBe("session.delete");
    expect(commandFor(keymap, "list", "d", key({ ctrl: true }))).toBeNull();
    const own = userKeymap({ "session.delete": ["ctrl+k"] }, pi).keymap;
    expect(commandFor(own, "list", "k", key({ ctrl: true }))).toBe("session.delete");
    expect(commandFor(own, "list", "e", key({ ctrl: true }))).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { key } from "../../../test/helpers/keys.js";
import { commandFor } from "./keymap.js";
import { userKeymap } from "./userKeymap.js";

describe("userKeymap", () => {
  it("rebinds a command and unbinds with []", () => {
    const { keymap, warnings } = userKeymap({ "list.down": ["n"], "help.open": [] });
    expect(warnings).toEqual([]);
    expect(commandFor(keymap, "list", "n", key())).toBe("list.down");
    expect(commandFor(keymap, "list", "j", key())).toBeNull();
    expect(commandFor(keymap, "list", "?", key())).toBeNull();
  });
  it("warns about unknown commands and bad keys, keeping defaults", () => {
    const { keymap, warnings } = userKeymap({ "list.fly": ["x"], "list.down": ["hyper+q"] });
    expect(warnings).toHaveLength(2);
    expect(commandFor(keymap, "list", "j", key())).toBe("list.down");
  });
  it("a key given to two commands of one screen goes to neither, with a warning naming both", () => {
    const { keymap, warnings } = userKeymap({ "session.delete": ["w", "d"], "list.down": ["w"] });
    expect(warnings).toEqual([
      'config: "w" is given to both session.delete and list.down; neither gets it',
      "config: list.down keeps its default keys",
    ]);
    expect(commandFor(keymap, "list", "w", key())).toBeNull();
    expect(commandFor(keymap, "list", "d", key())).toBe("session.delete");
    expect(commandFor(keymap, "list", "j", key())).toBe("list.down");
  });
  it("the same key for commands of different screens is fine", () => {
    expect(userKeymap({ "list.down": ["w"], "reader.down": ["w"] }).warnings).toEqual([]);
  });
});

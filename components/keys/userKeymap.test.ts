import { describe, expect, it } from "vitest";
import { key } from "../../test/helpers/keys.js";
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
});

import { describe, expect, it } from "vitest";
import { K } from "../../../test/helpers/keys.js";
import { DEFAULT_KEYMAP } from "./keymap.js";
import { unboundKeyNote } from "./elsewhere.js";

const note = (mode: Parameters<typeof unboundKeyNote>[1], k: readonly [string, Parameters<typeof unboundKeyNote>[3]]) =>
  unboundKeyNote(DEFAULT_KEYMAP, mode, k[0], k[1]);

describe("a typed key that means nothing on this screen (QA: P, u, d in the tree said nothing)", () => {
  it("says what it does on the screen it belongs to", () => {
    expect(note("tree", K.char("P"))).toBe(
      "P: hide or show the preview (the list takes the whole width), in the list; not here · ? lists this screen's keys",
    );
    expect(note("reader", K.char("u"))).toMatch(/^u: undo the last delete .*, in the list; not here/);
    expect(note("list", K.char("z"))).toMatch(/^z: fold the tool call under the cursor.*, in the reader; not here/);
  });
  it("says a key no screen has does nothing here", () => {
    expect(note("list", K.char("&"))).toBe("that key does nothing here · ? lists this screen's keys");
  });
  it("leaves alone what is not a typed character", () => {
    expect(note("list", K.enter)).toBeUndefined();
    expect(note("list", K.ctrlC)).toBeUndefined();
    expect(note("list", K.char(" "))).toBeUndefined();
  });
});

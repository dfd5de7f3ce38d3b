import { describe, expect, it } from "vitest";
import { colorsEnabled, makeTheme } from "./theme.js";

describe("theme", () => {
  it("honours NO_COLOR", () => {
    expect(colorsEnabled({ NO_COLOR: "1" })).toBe(false);
    expect(colorsEnabled({ NO_COLOR: "" })).toBe(true);
    expect(colorsEnabled({})).toBe(true);
  });
  it("drops colours but keeps bold without colour", () => {
    const plain = makeTheme(false);
    for (const t of Object.values(plain)) expect(t.color).toBeUndefined();
    expect(plain.title.bold).toBe(true);
    expect(makeTheme(true).named.color).toBe("yellow");
  });
});

describe("light theme", () => {
  it("swaps washed-out colours and still honours colour being off", async () => {
    const { makeTheme } = await import("./theme.js");
    expect(makeTheme(true, true).accent.color).toBe("blue");
    expect(makeTheme(true, false).accent.color).toBe("cyan");
    expect(makeTheme(false, true).accent.color).toBeUndefined();
  });
});

describe("the selection bar", () => {
  it("is inverse and bold in every theme, NO_COLOR included, so the selected row stands out without colour", () => {
    for (const t of [makeTheme(true), makeTheme(true, true), makeTheme(false)]) {
      expect(t.selected.inverse).toBe(true);
      expect(t.selected.bold).toBe(true);
    }
    // A named row is bold (and coloured) but never inverse: it cannot pass for the selection.
    expect(makeTheme(false).named.inverse).toBeUndefined();
  });
});

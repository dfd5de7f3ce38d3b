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

import { describe, expect, it } from "vitest";
import { foldAccents } from "./fold.js";

describe("foldAccents", () => {
  it("folds Latin letters with diacritics to their base letter, one for one", () => {
    expect(foldAccents("naïve café Ångström")).toBe("naive cafe Angstrom");
    expect(foldAccents("naïve").length).toBe("naïve".length);
  });
  it("leaves letters without a decomposition and other scripts alone", () => {
    expect(foldAccents("straße æ ø 한국어 研究 🎉")).toBe("straße æ ø 한국어 研究 🎉");
  });
});

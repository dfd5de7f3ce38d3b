import { describe, expect, it } from "vitest";
import { fieldView } from "./TextFieldDialog.js";

describe("fieldView", () => {
  it("shows the cursor cell, and a space past the end", () => {
    expect(fieldView({ value: "abc", cursor: 1 }, 20)).toEqual({ before: "a", at: "b", after: "c" });
    expect(fieldView({ value: "abc", cursor: 3 }, 20)).toEqual({ before: "abc", at: " ", after: "" });
  });
  it("keeps the cursor in view in a long value", () => {
    const v = fieldView({ value: "x".repeat(50), cursor: 50 }, 10);
    expect(v.before).toBe("…" + "x".repeat(8));
    expect(v.at).toBe(" ");
  });
});

import { describe, expect, it } from "vitest";
import { modalBox, modalWidth } from "./modalBox.js";

describe("modalBox", () => {
  it("centres the dialog in the area", () => {
    expect(modalBox(120, 30, 40, 10)).toEqual({ left: 40, top: 10, width: 40, height: 10 });
    expect(modalBox(81, 25, 40, 10)).toEqual({ left: 20, top: 7, width: 40, height: 10 });
  });
  it("never exceeds the area", () => {
    expect(modalBox(30, 8, 40, 10)).toEqual({ left: 0, top: 0, width: 30, height: 8 });
  });
});

describe("modalWidth", () => {
  it("fits the widest line plus border and padding, within bounds", () => {
    expect(modalWidth([10, 50], 100)).toBe(54);
    expect(modalWidth([10], 100)).toBe(30);
    expect(modalWidth([200], 80)).toBe(80);
  });
});

import { describe, expect, it } from "vitest";
import { rowFinder } from "./row-finder.js";

describe("rowFinder", () => {
  const rows = Array.from({ length: 300 }, (_, i) => ({ i }));

  it("finds each row in order, again, out of order, and past many asks (by a map)", () => {
    const find = rowFinder(rows);
    for (const r of rows) expect(find(r)).toBe(r.i);
    expect(find(rows[299])).toBe(299);
    for (let k = 0; k < 200; k++) {
      const r = rows[(k * 37) % 300];
      expect(find(r)).toBe(r.i);
    }
    expect(find({ i: 5 })).toBe(-1);
  });

  it("says -1 of an item it does not hold, whatever came before", () => {
    const find = rowFinder(rows);
    expect(find({ i: 0 })).toBe(-1);
    expect(find(rows[0])).toBe(0);
    expect(find({ i: 1 })).toBe(-1);
    expect(find(rows[1])).toBe(1);
    expect(rowFinder([])({ i: 0 })).toBe(-1);
  });
});

import { describe, expect, it } from "vitest";
import { rowFinder } from "./row-finder.js";

/** The list behind a proxy that counts each read of an item by its index. */
function countingReads<T>(list: T[]): { counted: T[]; reads: () => number } {
  let read = 0;
  const counted = new Proxy(list, {
    get: (target, key, receiver) => (
      typeof key === "string" && /^\d+$/.test(key) && read++,
      Reflect.get(target, key, receiver)
    ),
  });
  return { counted, reads: () => read };
}

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

  it("finds an item that says its place there, out of order, without a scan or a map; elsewhere as any other", () => {
    const placed = Array.from({ length: 300 }, (_, place) => ({ place }));
    const { counted, reads } = countingReads(placed);
    const find = rowFinder(counted);
    for (let k = 0; k < 200; k++) {
      const r = placed[(k * 37) % 300];
      expect(find(r)).toBe(r.place);
    }
    // One read each: the item at its place.
    expect(reads()).toBe(200);
    // Not at the place it says (a list made again in another order): found as any item is.
    const moved = [...placed].reverse();
    const again = rowFinder(moved);
    expect(again(placed[0])).toBe(299);
    expect(again({ place: 5 })).toBe(-1);
  });

  it("finds items that say their place in a list made again with one put before them, by the shift the last one had, not a map", () => {
    // A store that changed: one row gone from place 100, a fresh one first.
    const placed = Array.from({ length: 300 }, (_, place) => ({ place }));
    const fresh = { place: -1 };
    const moved = [fresh, ...placed.slice(0, 100), ...placed.slice(101)];
    const { counted, reads } = countingReads(moved);
    const find = rowFinder(counted);
    let asked = 0;
    for (let k = 0; k < 300; k++) {
      const r = placed[(k * 37) % 300];
      if (r.place === 100) continue;
      asked++;
      expect(find(r)).toBe(moved.indexOf(r));
    }
    expect(find(fresh)).toBe(0);
    // Two reads each (its place, then as far as the last one moved), one scan: no map of the list.
    expect(reads()).toBeLessThan(2 * asked + 2 * moved.length);
  });
});

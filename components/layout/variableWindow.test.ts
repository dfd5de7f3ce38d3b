import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { visibleWindow } from "./layout.js";
import { visibleWindowVar } from "./variableWindow.js";

const ones = () => 1;

describe("visibleWindowVar", () => {
  it("equals visibleWindow when every row is one line", () => {
    fc.assert(
      fc.property(fc.nat(60), fc.nat(70), fc.nat(25), fc.nat(70), fc.nat(4), (total, cursor, height, prevTop, so) => {
        expect(visibleWindowVar(ones, total, cursor, height, prevTop, so)).toEqual(
          visibleWindow(total, cursor, height, prevTop, so),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("fits two-line rows: fewer rows in the same height", () => {
    const h = (i: number) => (i % 2 === 0 ? 2 : 1); // 2,1,2,1,…
    // 2+1+2+1+2+1 = 9 lines for 6 rows; the 7th (2 lines) would not fit whole.
    expect(visibleWindowVar(h, 100, 0, 10, 0)).toEqual({ top: 0, end: 6 });
  });

  it("scrolls so the cursor row and its context fit whole", () => {
    const h = () => 2;
    // 10 lines = 5 two-line rows; cursor 4 with 2 rows of context below needs top 2.
    expect(visibleWindowVar(h, 100, 4, 10, 0)).toEqual({ top: 2, end: 7 });
    // Moving up keeps context above.
    expect(visibleWindowVar(h, 100, 3, 10, 2)).toEqual({ top: 1, end: 6 });
  });

  it("fills the pane at the end of the list", () => {
    const h = (i: number) => (i === 9 ? 2 : 1);
    // Rows 0..9 take 11 lines; 6 lines at the bottom: rows 5..9 (1+1+1+1+2).
    expect(visibleWindowVar(h, 10, 9, 6, 0)).toEqual({ top: 5, end: 10 });
  });

  it("always includes the cursor, even in a pane shorter than its row", () => {
    expect(visibleWindowVar(() => 2, 10, 4, 1, 0)).toEqual({ top: 4, end: 5 });
  });

  it("property: the cursor is inside, the rows fit, and nothing is left blank that could be filled", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 1, maxLength: 60 }),
        fc.nat(70),
        fc.integer({ min: 2, max: 25 }),
        fc.nat(70),
        (hs, cursor, height, prevTop) => {
          const heightOf = (i: number) => hs[i];
          const { top, end } = visibleWindowVar(heightOf, hs.length, cursor, height, prevTop);
          const c = Math.min(cursor, hs.length - 1);
          expect(top).toBeLessThanOrEqual(c);
          expect(end).toBeGreaterThan(c);
          const used = hs.slice(top, end).reduce((a, b) => a + b, 0);
          expect(used).toBeLessThanOrEqual(height);
          if (end < hs.length) expect(used + hs[end]).toBeGreaterThan(height);
          if (top > 0) expect(hs.slice(top - 1).reduce((a, b) => a + b, 0)).toBeGreaterThan(height);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

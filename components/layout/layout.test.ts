import { describe, expect, it } from "vitest";
import { computeLayout, visibleWindow } from "./layout.js";

describe("computeLayout", () => {
  it("puts the preview beside the list on wide terminals and fills every row", () => {
    const l = computeLayout({ columns: 160, rows: 40 });
    expect(l.tooSmall).toBe(false);
    expect(l.preview.position).toBe("right");
    expect(l.height).toBe(40);
    expect(l.header + l.search + l.body + l.status + l.footer).toBe(40);
    expect(l.list.width + l.preview.width).toBe(160);
    expect(l.list.height).toBe(l.body);
    expect(l.preview.inner).toEqual({ width: l.preview.width - 3, height: l.body - 2 });
    expect(l.list.inner).toEqual({ width: l.list.width - 2, height: l.body - 2 });
  });
  it("puts the preview below on narrow terminals", () => {
    const l = computeLayout({ columns: 80, rows: 24, searchBar: true });
    expect(l.preview.position).toBe("below");
    expect(l.search).toBe(1);
    expect(l.header + l.search + l.list.height + l.preview.height + l.status + l.footer).toBe(24);
    expect(l.list.width).toBe(80);
    expect(l.preview.inner.height).toBe(l.preview.height - 2);
  });
  it("is too small below 60×15", () => {
    expect(computeLayout({ columns: 59, rows: 40 }).tooSmall).toBe(true);
    expect(computeLayout({ columns: 100, rows: 14 }).tooSmall).toBe(true);
    expect(computeLayout({ columns: 60, rows: 15 }).tooSmall).toBe(false);
  });
  it("never goes negative", () => {
    const l = computeLayout({ columns: 10, rows: 1 });
    expect(l.body).toBe(0);
    expect(l.list.height).toBeGreaterThanOrEqual(0);
    expect(l.preview.inner.height).toBeGreaterThanOrEqual(0);
  });
  it("switches at 110 columns", () => {
    expect(computeLayout({ columns: 109, rows: 30 }).preview.position).toBe("below");
    expect(computeLayout({ columns: 110, rows: 30 }).preview.position).toBe("right");
  });
});

describe("visibleWindow", () => {
  it("shows everything when it fits", () => {
    expect(visibleWindow(5, 4, 10, 0)).toEqual({ top: 0, end: 5 });
  });
  it("keeps the window while the cursor moves inside it", () => {
    expect(visibleWindow(100, 5, 10, 0)).toEqual({ top: 0, end: 10 });
    expect(visibleWindow(100, 12, 10, 5)).toEqual({ top: 5, end: 15 });
  });
  it("scrolls with scroll-off when the cursor nears an edge", () => {
    expect(visibleWindow(100, 8, 10, 0)).toEqual({ top: 1, end: 11 });
    expect(visibleWindow(100, 6, 10, 5)).toEqual({ top: 4, end: 14 });
  });
  it("clamps at both ends", () => {
    expect(visibleWindow(100, 0, 10, 50)).toEqual({ top: 0, end: 10 });
    expect(visibleWindow(100, 99, 10, 0)).toEqual({ top: 90, end: 100 });
    expect(visibleWindow(100, 500, 10, 0)).toEqual({ top: 90, end: 100 });
  });
  it("handles empty lists and tiny heights", () => {
    expect(visibleWindow(0, 0, 10, 0)).toEqual({ top: 0, end: 0 });
    expect(visibleWindow(10, 3, 0, 0)).toEqual({ top: 0, end: 0 });
    expect(visibleWindow(10, 3, 1, 0)).toEqual({ top: 3, end: 4 });
  });
  it("keeps the window when the list shrinks under it", () => {
    expect(visibleWindow(12, 11, 10, 50)).toEqual({ top: 2, end: 12 });
  });
});

describe("the preview's room (issue 20)", () => {
  it("P hides it: the list takes the whole body, side by side or stacked", () => {
    for (const columns of [80, 120, 200]) {
      const l = computeLayout({ columns, rows: 30, previewShare: 0 });
      expect(l.list.width).toBe(columns);
      expect(l.list.height).toBe(l.body);
      expect(l.preview.width * l.preview.height).toBe(0);
    }
  });
  it("+ and - step its share; the default is what it always was", () => {
    expect(computeLayout({ columns: 120, rows: 30 }).list.width).toBe(66);
    expect(computeLayout({ columns: 120, rows: 30, previewShare: 0.65 }).list.width).toBe(42);
    expect(computeLayout({ columns: 80, rows: 30, previewShare: 0.25 }).list.height).toBeGreaterThan(
      computeLayout({ columns: 80, rows: 30 }).list.height,
    );
  });
});

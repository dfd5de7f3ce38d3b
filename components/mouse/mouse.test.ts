import { describe, expect, it } from "vitest";
import { makeSessions } from "../../test/helpers/sessions.js";
import { computeLayout } from "../layout/layout.js";
import { type AppState, initialState } from "../../src/browser/app/appReducer.js";
import { hitTest } from "./hitTest.js";
import { DOUBLE_CLICK_MS, type MouseAction } from "../../src/browser/app/mouseReducer.js";
import { isMouseSequence, parseMouse } from "../../src/browser/keys/sgrMouse.js";
import { reduce, scanSummaries } from "../../test/helpers/update.js";

const CWD = "/home/u/proj";

describe("SGR mouse reports", () => {
  it("parses presses, releases and the wheel (1-based cells become 0-based); motion and other buttons are dropped", () => {
    expect(parseMouse("\x1b[<0;10;5M")).toEqual({ kind: "press", button: 0, x: 9, y: 4 });
    expect(parseMouse("\x1b[<0;10;5m")).toEqual({ kind: "release", button: 0, x: 9, y: 4 });
    expect(parseMouse("\x1b[<64;1;1M")).toEqual({ kind: "wheel", button: -1, x: 0, y: 0 });
    expect(parseMouse("\x1b[<65;1;1M")).toEqual({ kind: "wheel", button: 1, x: 0, y: 0 });
    // Ctrl held (16) still clicks; motion (32) is not a click.
    expect(parseMouse("\x1b[<16;2;2M")).toMatchObject({ kind: "press", button: 0 });
    expect(parseMouse("\x1b[<32;2;2M")).toBeNull();
    expect(parseMouse("\x1b[<66;2;2M")).toBeNull();
    expect(isMouseSequence("\x1b[<0;1;1M")).toBe(true);
    expect(isMouseSequence("\x1b[A")).toBe(false);
  });
});

describe("hit test", () => {
  const layout = computeLayout({ columns: 120, rows: 30 });
  it("maps a cell to the list row under it (past the border and the headings), or to the preview", () => {
    const ctx = {
      screen: "list" as const,
      layout,
      listTop: 5,
      rowCount: 50,
      rowHeight: (i: number) => (i === 6 ? 2 : 1),
    };
    // Row y=3: header 0, border 1, headings 2, first row 3 → row 5 (the window's top).
    expect(hitTest(3, 3, ctx)).toEqual({ pane: "list", row: 5 });
    expect(hitTest(3, 4, ctx)).toEqual({ pane: "list", row: 6 });
    // Row 6 takes two lines (a snippet): line 5 is still row 6.
    expect(hitTest(3, 5, ctx)).toEqual({ pane: "list", row: 6 });
    expect(hitTest(3, 6, ctx)).toEqual({ pane: "list", row: 7 });
    expect(hitTest(3, 2, ctx)).toEqual({ pane: "list" });
    expect(hitTest(layout.list.width + 3, 10, ctx)).toEqual({ pane: "preview" });
    expect(hitTest(3, 29, ctx)).toEqual({ pane: "other" });
  });
  it("in the tree: the entry under the pointer, one line a row, past the border", () => {
    const ctx = { screen: "tree" as const, layout, listTop: 10, rowCount: 15, rowHeight: () => 1 };
    // Row y=2: header 0, border 1, first row 2 → entry 10 (the window's top).
    expect(hitTest(3, 2, ctx)).toEqual({ pane: "list", row: 10 });
    expect(hitTest(3, 6, ctx)).toEqual({ pane: "list", row: 14 });
    expect(hitTest(3, 7, ctx)).toEqual({ pane: "list" }); // past the last entry
    expect(hitTest(3, 1, ctx)).toEqual({ pane: "list" });
  });
  it("in the reader: the window's line under the pointer", () => {
    const ctx = { screen: "reader" as const, layout, listTop: 0, rowCount: 0, rowHeight: () => 1 };
    expect(hitTest(10, 2, ctx)).toEqual({ pane: "reader", row: 0 });
    expect(hitTest(10, 1, ctx)).toEqual({ pane: "reader" });
  });
});

describe("mouse actions", () => {
  const loaded = (): AppState =>
    reduce(initialState({ launchCwd: CWD }), scanSummaries(makeSessions(20, { cwd: CWD })));
  const click = (row: number, at: number): MouseAction => ({ type: "mouse", kind: "click", pane: "list", row, at });

  it("the wheel over the list moves it; over the preview it scrolls the preview as J / K do", () => {
    const s = reduce(loaded(), { type: "mouse", kind: "wheel", pane: "list", dir: 1, at: 0 });
    expect(s.cursor).toBe(3);
    expect(reduce(s, { type: "mouse", kind: "wheel", pane: "list", dir: -1, at: 0 }).cursor).toBe(0);
    const base = loaded();
    const up = reduce(base, { type: "mouse", kind: "wheel", pane: "preview", dir: -1, at: 0 });
    expect(up.cursor).toBe(0);
    expect(up.preview).toEqual(reduce(base, { type: "command", command: "list.previewUp" }).preview);
    expect(up.preview).not.toEqual(base.preview);
  });

  it("a click selects a row; a second click on it soon after resumes it; a slow one only selects", () => {
    const s0 = loaded();
    let s = reduce(s0, click(4, 1000));
    expect(s.cursor).toBe(4);
    expect(s.effects).toEqual([]);
    const slow = reduce(s, click(4, 1000 + DOUBLE_CLICK_MS + 1));
    expect(slow.effects).toEqual([]);
    const other = reduce(s, click(5, 1100));
    expect(other.effects).toEqual([]);
    s = reduce(s, click(4, 1200));
    expect(s.effects).toMatchObject([{ type: "resume", path: s0.rows[4].session.path }]);
  });

  it("in the help the wheel scrolls it", () => {
    const help = reduce(loaded(), { type: "command", command: "help.open" });
    expect(reduce(help, { type: "mouse", kind: "wheel", pane: "other", dir: 1, at: 0 }).helpTop).toBe(3);
  });

  it("is ignored behind a dialog and while the terminal is too small", () => {
    const menu = reduce(loaded(), { type: "command", command: "menu.open" });
    expect(reduce(menu, click(4, 0)).cursor).toBe(0);
    const small = reduce(loaded(), { type: "viewport", pageSize: 3, visible: false });
    expect(reduce(small, click(4, 0)).cursor).toBe(0);
  });
});

import { describe, expect, it } from "vitest";
import { displayWidth, padToWidth } from "../../text/sanitize.js";
import { alignedRows, alignRows, pad } from "./table.js";

describe("alignRows", () => {
  const rows = [
    ["ID", "KIND", "TEXT"],
    ["a1", "thinking_level_change", "medium"],
    ["b22", "user", "研究 ".repeat(40)],
    ["c", "model", ""],
  ];
  it("starts every column at the same display column, however long a cell is", () => {
    const lines = alignRows(rows);
    const at = (line: string, cell: string) => displayWidth(line.slice(0, line.indexOf(cell)));
    expect(new Set(lines.map((l, i) => at(l, rows[i][1]))).size).toBe(1);
    expect(new Set(lines.slice(0, 3).map((l, i) => at(l, rows[i][2].trim())))).toEqual(new Set([at(lines[0], "TEXT")]));
  });
  it("makes the same lines one at a time, in any order (alignedRows: list writes them a chunk at a time)", () => {
    for (const opts of [{}, { columns: 60 }, { right: new Set([0]) }]) {
      const aligned = alignedRows(rows, opts);
      expect(aligned.length).toBe(rows.length);
      const backwards = rows.map((_, i) => aligned.line(rows.length - 1 - i)).reverse();
      expect(backwards).toEqual(alignRows(rows, opts));
    }
    expect(alignedRows([]).length).toBe(0);
  });
  it("lets go of each row once its line is made, when each line is asked for once (alignedRows once)", () => {
    const copy = rows.map((r) => [...r]);
    const aligned = alignedRows(copy, { once: true });
    const lines = copy.map((_, i) => aligned.line(i));
    expect(lines).toEqual(alignRows(rows));
    // The cells of 50,000 rows were held until the last line was written.
    expect(copy.every((r) => r === undefined)).toBe(true);
    expect(() => aligned.line(0)).toThrow(/once/);
  });
  it("cuts only the last column, and only to a terminal's width", () => {
    expect(
      alignRows(rows)
        .map(displayWidth)
        .some((w) => w > 120),
    ).toBe(true);
    const cut = alignRows(rows, { columns: 60 });
    for (const l of cut) expect(displayWidth(l)).toBeLessThanOrEqual(60);
    expect(cut[1]).toContain("thinking_level_change");
    expect(cut[2].endsWith("…")).toBe(true);
  });
  it("leaves no trailing spaces and right-aligns the columns asked for", () => {
    const lines = alignRows(
      [
        ["1", "x", ""],
        ["100", "y", "z"],
      ],
      { right: new Set([0]) },
    );
    expect(lines).toEqual(["  1  x", "100  y  z"]);
  });
});

describe("pad", () => {
  // ASCII, CJK, an emoji, a ZWJ sequence, a combining mark, a variation selector, an escape, a lone surrogate.
  const cells = ["", "abc", "研究", "🚀 go", "👩‍👩‍👧", "e\u0301", "❤\ufe0f", "\u001b[31mred", "x\ud800", "naïve"];
  it("is padToWidth's answer for every cell no wider than the column, left and right", () => {
    for (const s of cells)
      for (const extra of [0, 1, 5])
        for (const right of [false, true]) {
          const own = displayWidth(s);
          expect(pad(s, own, own + extra, right)).toBe(padToWidth(s, own + extra, right ? "right" : "left"));
        }
  });
  it("aligns a table of such cells as padToWidth pads each one", () => {
    const table = cells.map((s, i) => [s, cells[(i + 3) % cells.length], `${i}`, s]);
    for (const right of [new Set<number>(), new Set([0, 2])]) {
      const widths = [0, 1, 2].map((c) => Math.max(...table.map((r) => displayWidth(r[c]))));
      const expected = table.map((r) =>
        (
          [0, 1, 2].map((c) => padToWidth(r[c], widths[c], right.has(c) ? "right" : "left") + "  ").join("") + r[3]
        ).trimEnd(),
      );
      expect(alignRows(table, { right })).toEqual(expected);
    }
  });
  it("pads by the width it is told the cell has", () => {
    expect(pad("研究", 4, 6, true)).toBe("  研究");
    expect(pad("ab", 2, 5, false)).toBe("ab   ");
    expect(pad("x".repeat(70), 70, 200, false)).toBe("x".repeat(70) + " ".repeat(130));
  });
});

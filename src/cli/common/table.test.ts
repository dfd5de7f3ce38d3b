import { describe, expect, it } from "vitest";
import { displayWidth } from "../../text/sanitize.js";
import { alignRows } from "./table.js";

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

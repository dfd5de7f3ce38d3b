import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { TreeRow } from "./TreeRow.js";

// Colours and attributes on before Ink's chalk loads, so the selection bar shows in frames.
vi.hoisted(() => {
  process.env.FORCE_COLOR = "1";
});

const parts = {
  id: "u1",
  prefix: "├─ ",
  active: "• ",
  match: "",
  label: "[keep] ",
  edit: "",
  text: "user: a question",
  kind: "user",
  leaf: " ← active",
};

/** The texts drawn in reverse video (Ink: ESC[7m … ESC[27m). */
const inverse = (frame: string) =>
  [...frame.matchAll(/\x1b\[7m(.*?)\x1b\[27m/g)].map((m) => m[1].replace(/\x1b\[[0-9;]*m/g, ""));

describe("TreeRow's selection bar", () => {
  it("spans the whole row: cursor, gutter, label, text, the active mark and the rest of the width", () => {
    const { lastFrame } = render(<TreeRow parts={{ ...parts, selected: true }} width={60} />);
    const bar = inverse(lastFrame()!);
    expect(bar).toHaveLength(1);
    expect(bar[0]).toHaveLength(60);
    expect(bar[0]).toMatch(/^❯ ├─ • \[keep\] user: a question ← active +$/);
  });

  it("is not drawn on a row that is not selected", () => {
    const { lastFrame } = render(<TreeRow parts={{ ...parts, selected: false }} width={60} />);
    expect(inverse(lastFrame()!)).toEqual([]);
  });
});

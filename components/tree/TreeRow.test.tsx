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

const plain = (frame: string) => frame.replace(/\x1b\[[0-9;]*m/g, "");
/** The texts drawn in reverse video (Ink: ESC[7m … ESC[27m). */
const inverse = (frame: string) => [...frame.matchAll(/\x1b\[7m(.*?)\x1b\[27m/g)].map((m) => plain(m[1]));

describe("TreeRow", () => {
  it("draws a row's pieces: cursor, gutter, label, text and the active mark", () => {
    const { lastFrame } = render(<TreeRow parts={{ ...parts, selected: true }} width={60} />);
    expect(plain(lastFrame()!).trimEnd()).toMatchInlineSnapshot(`"❯ ├─ • [keep] user: a question ← active"`);
  });

  it("draws the selection bar across the whole row: cursor, gutter, label, text, mark and the rest", () => {
    const { lastFrame } = render(<TreeRow parts={{ ...parts, selected: true }} width={60} />);
    const bar = inverse(lastFrame()!);
    expect(bar).toHaveLength(1);
    expect(bar[0]).toHaveLength(60);
    expect(bar[0]).toMatch(/^❯ ├─ • \[keep\] user: a question ← active +$/);
  });

  it("draws no bar on a row that is not selected", () => {
    const { lastFrame } = render(<TreeRow parts={{ ...parts, selected: false }} width={60} />);
    expect(inverse(lastFrame()!)).toEqual([]);
    expect(plain(lastFrame()!).trimEnd()).toBe("  ├─ • [keep] user: a question ← active");
  });
});

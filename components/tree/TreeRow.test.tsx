import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { TreeRow } from "./TreeRow.js";

describe("TreeRow", () => {
  it("draws a row's pieces: cursor, gutter, label, text and the active mark", () => {
    const parts = {
      id: "u1",
      selected: true,
      prefix: "├─ ",
      active: "• ",
      match: "",
      label: "[keep] ",
      edit: "",
      text: "user: a question",
      kind: "user",
      leaf: " ← active",
    };
    const { lastFrame } = render(<TreeRow parts={parts} width={60} />);
    expect(lastFrame()).toMatchInlineSnapshot(`"❯ ├─ • [keep] user: a question ← active"`);
    expect(lastFrame()).toContain("[keep] user: a question ← active");
  });
});

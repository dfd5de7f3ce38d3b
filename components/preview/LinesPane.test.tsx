import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { LinesPane } from "./LinesPane.js";

describe("LinesPane", () => {
  it("frames its lines under its title, and says what is missing when it has none", () => {
    const shown = render(
      <LinesPane
        lines={[{ text: "first" }, { text: "second", tone: "muted" }]}
        empty="nothing"
        position="right"
        width={24}
        height={5}
      />,
    ).lastFrame();
    expect(shown).toMatchInlineSnapshot(`
      "╭─ Preview ────────────╮
      │ first                │
      │ second               │
      │                      │
      ╰──────────────────────╯"
    `);
    expect(
      render(
        <LinesPane lines={undefined} empty="no session selected" position="right" width={30} height={4} />,
      ).lastFrame(),
    ).toContain("no session selected");
  });
});

import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { UsageLegend } from "./UsageLegend.js";

describe("UsageLegend", () => {
  it("names each model by its colour, or by its glyph without colour", () => {
    const items = [
      { slot: 0, label: "sonnet" },
      { slot: 1, label: "gpt" },
    ];
    const plain = render(<UsageLegend items={items} color={false} width={60} />).lastFrame();
    expect(plain).toMatchInlineSnapshot(`"█ sonnet  ▓ gpt"`);
    expect(plain).toContain("sonnet");
  });
});

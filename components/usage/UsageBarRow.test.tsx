import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { UsageBarRow } from "./UsageBarRow.js";

describe("UsageBarRow", () => {
  it("draws a group's label, its bar stacked by model and its values", () => {
    const row = {
      key: "2026-11-20",
      label: "2026-11-20  ",
      pieces: [
        { segment: 0, text: "████" },
        { segment: 1, text: "██▌" },
      ],
      pad: "   ",
      values: "$12.50  1.2M",
    };
    const { lastFrame } = render(<UsageBarRow row={row} color={false} width={60} />);
    expect(lastFrame()).toMatchInlineSnapshot(`"2026-11-20  ██████▌   $12.50  1.2M"`);
    expect(lastFrame()).toContain("$12.50");
  });
});

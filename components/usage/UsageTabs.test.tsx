import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { UsageTabs } from "./UsageTabs.js";

describe("UsageTabs", () => {
  it("marks the grouping shown and what the bars measure", () => {
    const { lastFrame } = render(<UsageTabs by="folder" metric="tokens" width={60} right="COST  TOKENS" />);
    expect(lastFrame()).toMatchInlineSnapshot(`" day ▸folder  model  bars: tokens               COST  TOKENS"`);
    expect(lastFrame()).toContain("▸folder");
  });
});

import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { TooSmall } from "./TooSmall.js";

describe("TooSmall", () => {
  it("says the size it has, the size it needs, and how to leave", () => {
    const { lastFrame } = render(<TooSmall columns={50} rows={12} />);
    expect(lastFrame()).toMatchInlineSnapshot(`
      "terminal too small
      50×12, need 60×15
      enlarge the window, or q to quit







      "
    `);
    expect(lastFrame()).toContain("50×12, need 60×15");
  });
});

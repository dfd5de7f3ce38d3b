import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { DEFAULT_KEYMAP } from "../../src/browser/keys/keymap.js";
import { Footer } from "./Footer.js";

describe("Footer", () => {
  it("shows the mode's hints from the registry, the most important first", () => {
    const { lastFrame } = render(<Footer mode="list" keymap={DEFAULT_KEYMAP} width={100} print={false} />);
    expect(lastFrame()).toMatchInlineSnapshot(
      `"↓ move  / search  Enter resume  t tree  ? help  x actions  q quit  Tab scope  Ctrl+T tool output"`,
    );
    expect(lastFrame()).toMatch(/^↓ move/);
  });
  it("says pick in the picker", () => {
    expect(render(<Footer mode="search" keymap={DEFAULT_KEYMAP} width={100} print />).lastFrame()).toContain(
      "Enter pick",
    );
  });
});

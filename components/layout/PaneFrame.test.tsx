import { Text } from "ink";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupInk, renderInk } from "../../test/helpers/ink.js";
import { displayWidth } from "../../src/text/sanitize.js";
import { PaneFrame, topBorder } from "./PaneFrame.js";

afterEach(cleanupInk);

describe("topBorder", () => {
  it("puts the title at the left and the info at the right of an exact-width line", () => {
    const b = topBorder("Sessions", "3 of 30", 40);
    const line = b.left + b.title + b.fill + b.info + b.right;
    expect(line).toBe("╭─ Sessions ───────────────── 3 of 30 ─╮");
    expect(displayWidth(line)).toBe(40);
  });
  it("drops the info, then cuts the title, when narrow", () => {
    const b = topBorder("A long pane title", "123 of 456", 22);
    expect(b.info).toBe("");
    expect(displayWidth(b.left + b.title + b.fill + b.info + b.right)).toBe(22);
  });
});

describe("PaneFrame", () => {
  it("frames its content in a rounded border with the title in the top line", async () => {
    const r = await renderInk(
      <PaneFrame title="Preview" width={20} height={4}>
        <Text>hello</Text>
      </PaneFrame>,
    );
    expect(r.lastFrame()!.split("\n")).toEqual([
      "╭─ Preview ────────╮",
      "│hello             │",
      "│                  │",
      "╰──────────────────╯",
    ]);
  });
});

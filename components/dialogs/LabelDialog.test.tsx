import { Box } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { LabelDialog } from "./LabelDialog.js";

describe("LabelDialog", () => {
  it("label: the entry it labels and the field", () => {
    const { lastFrame } = render(
      <Box width={70} height={10}>
        <LabelDialog entryText="user: a question" input={{ value: "keep", cursor: 4 }} width={70} height={10} />
      </Box>,
    );
    expect(lastFrame()).toMatchInlineSnapshot(`
      "
           ╭─ Label the entry ────────────────────────────────────────╮
           │   user: a question                                       │
           │                                                          │
           │ Label: keep                                              │
           │                                                          │
           │ Enter save · Esc cancel · an empty label clears it       │
           ╰──────────────────────────────────────────────────────────╯

      "
    `);
    expect(lastFrame()).toContain("Label: keep");
  });
});

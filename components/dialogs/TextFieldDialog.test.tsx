import { Box } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { TextFieldDialog } from "./TextFieldDialog.js";

describe("TextFieldDialog", () => {
  it("shows the field with a block cursor, the hint, and a warning when there is one", () => {
    const { lastFrame } = render(
      <Box width={70} height={10}>
        <TextFieldDialog
          heading="Rename session"
          subject="my session"
          field="Name"
          input={{ value: "new", cursor: 3 }}
          hint="Enter save · Esc cancel"
          warning="⚠ It changed in the last 10 seconds: pi may have it open."
          width={70}
          height={10}
        />
      </Box>,
    );
    expect(lastFrame()).toMatchInlineSnapshot(`
      "
          ╭─ Rename session ──────────────────────────────────────────╮
          │   my session                                              │
          │                                                           │
          │ Name: new                                                 │
          │                                                           │
          │ ⚠ It changed in the last 10 seconds: pi may have it open. │
          │ Enter save · Esc cancel                                   │
          ╰───────────────────────────────────────────────────────────╯
      "
    `);
    expect(lastFrame()).toContain("Name: new");
    expect(lastFrame()).toContain("pi may have it open");
  });
});

import { Box } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { ConfirmWriteDialog } from "./ConfirmWriteDialog.js";

describe("ConfirmWriteDialog", () => {
  it("write anyway?: says the file changed recently and what y and n do", () => {
    const { lastFrame } = render(
      <Box width={80} height={12}>
        <ConfirmWriteDialog
          write={{ op: "label", entryId: "u1", label: "x" }}
          fileName="s.jsonl"
          width={80}
          height={12}
        />
      </Box>,
    );
    expect(lastFrame()).toMatchInlineSnapshot(`
      "
                   ╭─ Write anyway? ───────────────────────────────────╮
                   │ This session changed in the last 10 seconds.      │
                   │   s.jsonl                                         │
                   │                                                   │
                   │ About to add a label.                             │
                   │ pi may have this session open — write anyway? y/N │
                   │                                                   │
                   │ y write anyway · n/Esc/Enter cancel               │
                   ╰───────────────────────────────────────────────────╯

      "
    `);
    expect(lastFrame()).toMatch(/y/);
  });
});

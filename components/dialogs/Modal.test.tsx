import { Box, Text } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { Modal, ModalLine } from "./Modal.js";

describe("Modal", () => {
  it("draws a titled box of the given size, centred in its area", () => {
    const { lastFrame } = render(
      <Box width={40} height={7}>
        <Modal areaWidth={40} areaHeight={7} width={20} height={4} title="Hello">
          <ModalLine width={20} text="one" />
          <ModalLine width={20} text="two" />
        </Modal>
      </Box>,
    );
    expect(lastFrame()).toMatchInlineSnapshot(`
      "
                ╭─ Hello ──────────╮
                │ one              │
                │ two              │
                ╰──────────────────╯

      "
    `);
    expect(lastFrame()).toContain("Hello");
  });

  it("is opaque: rows its content does not fill still hide what is beneath", () => {
    const { lastFrame } = render(
      <Box width={40} height={8} flexDirection="column">
        {Array.from({ length: 8 }, (_, i) => (
          <Text key={i}>{"x".repeat(40)}</Text>
        ))}
        <Box position="absolute" width={40} height={8}>
          <Modal areaWidth={40} areaHeight={8} width={20} height={6} title="Hi">
            <ModalLine width={20} text="one" />
          </Modal>
        </Box>
      </Box>,
    );
    const rows = lastFrame()!.split("\n");
    // The dialog's rows (1–6) between its borders (columns 10–29): no x shows through.
    for (const row of rows.slice(1, 7)) expect(row.slice(10, 30)).not.toContain("x");
    expect(rows[0]).toBe("x".repeat(40));
  });
});

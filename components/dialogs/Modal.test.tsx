import { Box } from "ink";
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
});

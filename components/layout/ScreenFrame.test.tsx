import { Text } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { ScreenFrame } from "./ScreenFrame.js";

describe("ScreenFrame", () => {
  it("puts the header on top, then the body, then the status and the footer", () => {
    const { lastFrame } = render(
      <ScreenFrame
        width={20}
        height={6}
        header={<Text>head</Text>}
        status={<Text>status</Text>}
        footer={<Text>hints</Text>}
      >
        <Text>body</Text>
      </ScreenFrame>,
    );
    expect(lastFrame()).toMatchInlineSnapshot(`
      "head
      body
      status
      hints

      "
    `);
    const lines = (lastFrame() ?? "").split("\n");
    expect(lines[0]).toBe("head");
    expect(lines[1]).toBe("body");
    expect(lines.slice(2, 4)).toEqual(["status", "hints"]);
  });
});

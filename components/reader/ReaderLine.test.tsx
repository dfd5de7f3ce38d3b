import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { ReaderLine } from "./ReaderLine.js";

describe("ReaderLine", () => {
  it("draws one transcript line, the cursor's marked", () => {
    const line = { block: 0, text: "  hello there", style: "text" as const, src: 0, start: 0, end: 11, prefix: 2 };
    const { lastFrame } = render(<ReaderLine line={line} kind="user" width={40} cursor />);
    expect(lastFrame()).toMatchInlineSnapshot(`"❯   hello there"`);
    expect(lastFrame()).toContain("hello there");
  });
});

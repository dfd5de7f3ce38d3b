import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { ReaderSearchLine } from "./ReaderSearchLine.js";

describe("ReaderSearchLine", () => {
  it("shows the query with a block cursor and the keys", () => {
    const { lastFrame } = render(<ReaderSearchLine input={{ value: "parser", cursor: 6 }} width={80} />);
    expect(lastFrame()).toMatchInlineSnapshot(`"search the transcript: parser    Enter search · Esc cancel"`);
    expect(lastFrame()).toContain("search the transcript: parser");
  });
});

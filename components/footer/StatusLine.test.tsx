import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { StatusLine } from "./StatusLine.js";

describe("StatusLine", () => {
  it("marks what was done ✓, what failed ✗, and a negative result with no mark of success", () => {
    const done = render(<StatusLine width={60} status={{ text: 'Renamed to "x"', tone: "info" }} />).lastFrame();
    expect(done).toMatchInlineSnapshot(`"✓ Renamed to "x""`);
    expect(render(<StatusLine width={60} status={{ text: "rename failed", tone: "error" }} />).lastFrame()).toBe(
      "✗ rename failed",
    );
    expect(render(<StatusLine width={60} status={{ text: "nothing to undo", tone: "note" }} />).lastFrame()).toBe(
      "· nothing to undo",
    );
  });
  it("shows a failed scan until a status replaces it, sanitized", () => {
    expect(render(<StatusLine width={60} scanError={"EACCES\x1b[2J"} />).lastFrame()).toBe("✗ scan failed: EACCES");
  });
  it("keeps the closing hint of a message too long for the line", () => {
    const text = "forked → 2026-11-26T16-31-22-913Z_019ac0de-7e1f-7c55-b1a3-5f0c8e2d4a11.jsonl · u undoes it";
    expect(render(<StatusLine width={50} status={{ text, tone: "info" }} />).lastFrame()).toMatchInlineSnapshot(
      `"✓ forked → 2026-11-26T16-31-22-913Z… · u undoes it"`,
    );
  });
});

import { Box } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { LinesDialog } from "./LinesDialog.js";

describe("LinesDialog", () => {
  it("sizes itself to its lines, centred, and cuts a path from its start", () => {
    const { lastFrame } = render(
      <Box width={60} height={8}>
        <LinesDialog
          title="Question"
          lines={[
            { text: "Go on?" },
            { text: "/a/very/long/path/that/will/not/fit/in/the/dialog/at/all/session.jsonl", path: true },
            { text: "▸ Cancel  ·  y go on", tone: "key" },
          ]}
          width={60}
          height={8}
        />
      </Box>,
    );
    expect(lastFrame()).toMatchInlineSnapshot(`
      "
        ╭─ Question ───────────────────────────────────────────╮
        │ Go on?                                               │
        │   …/will/not/fit/in/the/dialog/at/all/session.jsonl  │
        │ ▸ Cancel  ·  y go on                                 │
        ╰──────────────────────────────────────────────────────╯

      "
    `);
    expect(lastFrame()).toContain("…/");
    expect(lastFrame()).toContain("session.jsonl");
  });
});

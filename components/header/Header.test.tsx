import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { Header } from "./Header.js";

const scan = { discovered: 3, probed: 3, scanned: 1, diagnostics: 0, done: false };

describe("Header", () => {
  it("draws the header line: store, scope, count, sort and scan progress", () => {
    const { lastFrame } = render(
      <Header
        width={100}
        info={{ storeLabel: "~/.pi/agent/sessions", scope: "cwd", shown: 2, total: 3, sort: "recent", scan }}
      />,
    );
    expect(lastFrame()).toMatchInlineSnapshot(
      `"pi-sessions ~/.pi/agent/sessions · this folder · 2/3 · sort: recent ↓ · scanning 1/3"`,
    );
    expect(lastFrame()).toContain("scanning 1/3");
  });
});

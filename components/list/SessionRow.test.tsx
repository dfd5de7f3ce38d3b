import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { parseQuery } from "../../src/search/query.js";
import { makeSummary } from "../../test/helpers/sessions.js";
import { SessionRow } from "./SessionRow.js";

const now = Date.parse("2026-11-24T12:00:00Z");
const session = makeSummary({ name: "refactor the parser", modified: new Date(now - 3_600_000), cwd: "/home/u/app" });

describe("SessionRow", () => {
  it("draws one row: marker, title, age, messages, size (and the folder)", () => {
    const { lastFrame } = render(
      <SessionRow row={{ session, depth: 0, prefix: "" }} width={70} selected showCwd now={now} />,
    );
    expect(lastFrame()).toMatchInlineSnapshot(`"❯ refactor the parser             1h     4  2.0K /home/u/app"`);
    expect(lastFrame()).toMatch(/^❯ refactor the parser +1h/);
  });
  it("a row matched where it cannot show it says why on a second line", () => {
    const row = {
      session: makeSummary({ name: "tests", firstMessage: "please fix the parser", modified: new Date(now) }),
      depth: 0,
      prefix: "",
      snippet: "message: please fix the parser",
    };
    const { lastFrame } = render(
      <SessionRow row={row} width={70} selected={false} showCwd={false} now={now} query={parseQuery("parser")} />,
    );
    expect(lastFrame()!.split("\n")[1]).toContain("↳ message: please fix the parser");
  });
});

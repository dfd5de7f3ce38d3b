import { afterEach, describe, expect, it } from "vitest";
import { cleanupInk, renderInk } from "../../test/helpers/ink.js";
import { SearchBar } from "./SearchBar.js";

afterEach(cleanupInk);

describe("SearchBar", () => {
  it("shows the query and the match count", async () => {
    const r = await renderInk(<SearchBar input={{ value: "parser", cursor: 6 }} active width={60} matches={3} />);
    expect(r.lastFrame()).toContain("/parser");
    expect(r.lastFrame()).toContain("3 matches");
  });
  it("shows a parse error instead of the count", async () => {
    const r = await renderInk(
      <SearchBar
        input={{ value: "re:(", cursor: 4 }}
        active={false}
        width={80}
        matches={0}
        error="invalid pattern re:("
      />,
    );
    expect(r.lastFrame()).toContain("invalid pattern");
    expect(r.lastFrame()).not.toContain("matches");
  });
  it("keeps the cursor end in view for long queries", async () => {
    const r = await renderInk(
      <SearchBar input={{ value: "x".repeat(100) + "END", cursor: 103 }} active width={40} matches={1} />,
    );
    expect(r.lastFrame()).toContain("END");
    expect(r.lastFrame()!.split("\n")).toHaveLength(1);
  });
});

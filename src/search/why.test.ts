import { describe, expect, it } from "vitest";
import { makeSummary } from "../../test/helpers/sessions.js";
import { parseQuery } from "./query.js";
import { ROW_SHOWS, whyMatched } from "./why.js";

describe("whyMatched", () => {
  it("says nothing when the title shows the hit", () => {
    expect(
      whyMatched(parseQuery("parser"), makeSummary({ name: "fix the parser", firstMessage: "x" })),
    ).toBeUndefined();
    expect(whyMatched(parseQuery("login"), makeSummary({ firstMessage: "the login test" }))).toBeUndefined();
  });
  it("a hit in the first message behind a name, or in the id, is said with the hit in view", () => {
    expect(
      whyMatched(parseQuery("login"), makeSummary({ name: "tests", firstMessage: "please fix the flaky login test" })),
    ).toBe("message: …ease fix the flaky login test");
    expect(
      whyMatched(parseQuery("abc123"), makeSummary({ id: "abc12345-0000", name: "tests", firstMessage: "x" })),
    ).toBe("id: abc12345-0000");
  });
  it("in the list, a hit the row cuts off is said: past the title's room, or at the start of a long folder (QA)", () => {
    const long = makeSummary({ firstMessage: "a long first message that only later says keyboard", cwd: "/p" });
    expect(whyMatched(parseQuery("keyboard"), long, ROW_SHOWS)).toMatch(/^message: .*keyboard/);
    expect(whyMatched(parseQuery("keyboard"), long)).toBeUndefined();
    const deep = makeSummary({ firstMessage: "x", cwd: "/srv/work/some/very/deep/folder/agent-o11y-10" });
    expect(whyMatched(parseQuery("srv"), deep, ROW_SHOWS)).toBe(
      "folder: /srv/work/some/very/deep/folder/agent-o11y-10",
    );
    expect(whyMatched(parseQuery("o11y"), deep, ROW_SHOWS)).toBeUndefined();
  });
  it("each term counts: one the row shows does not hide another it does not (QA: 'keyboard tree')", () => {
    const s = makeSummary({ name: "keyboard index thread", firstMessage: "fix the tree view", cwd: "/p" });
    expect(whyMatched(parseQuery("keyboard tree"), s, ROW_SHOWS)).toBe("message: fix the tree view");
  });
});

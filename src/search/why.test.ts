import { describe, expect, it } from "vitest";
import { makeSummary } from "../../test/helpers/sessions.js";
import { parseQuery } from "./query.js";
import { whyMatched } from "./why.js";

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
});

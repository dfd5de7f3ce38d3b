import { describe, expect, it } from "vitest";
import { makeSummary } from "../../test/helpers/sessions.js";
import { parseQuery } from "./query.js";
import { sessionRanker } from "./rank.js";

describe("sessionRanker", () => {
  const titled = makeSummary({ firstMessage: "fix the parser", cwd: "/p" });
  const other = makeSummary({ firstMessage: "deploy", cwd: "/elsewhere" });

  it("a hit the row shows ranks above one only in the conversation", () => {
    const rank = sessionRanker(parseQuery("parser"));
    const own = rank(titled, false);
    const body = rank(other, true);
    expect(own).toMatchObject({ byText: false });
    expect(body).toMatchObject({ own: null, byText: true });
    expect(own.rank!).toBeGreaterThan(body.rank!);
    expect(rank(other, false).rank).toBeNull();
  });

  it("a full-text hit counts only where the field filters hold", () => {
    const rank = sessionRanker(parseQuery("cwd:elsewhere parser"));
    expect(rank(other, true).byText).toBe(true);
    expect(rank(makeSummary({ firstMessage: "x", cwd: "/p" }), true)).toEqual({ own: null, rank: null, byText: false });
  });
});

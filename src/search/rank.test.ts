import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeSummary } from "../../test/helpers/sessions.js";
import { arbFields, arbQuery, arbText } from "../../test/helpers/search-arbitraries.js";
import { fieldTextOf, rankingContext } from "./field-text.js";
import { parseQuery } from "./query.js";
import { bodyRank, sessionRanker } from "./rank.js";

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

describe("bodyRank", () => {
  const text = arbText("abAB éı-/.\t", 6);
  const arbSession = arbFields(
    text,
    text.map((t) => `/${t}`),
  );
  const query = arbQuery(text, [text.map((t) => `cwd:${t}`)]);

  it("gives the rank sessionRanker gives with a text hit, for every session it does not leave to it", () => {
    fc.assert(
      fc.property(fc.array(arbSession, { maxLength: 6 }), query, (parts, q) => {
        const sessions = parts.map((p) => makeSummary(p));
        const ctx = rankingContext(fieldTextOf(sessions), sessions)!;
        const parsed = parseQuery(q);
        const body = bodyRank(parsed, ctx);
        const rank = sessionRanker(parsed, ctx);
        for (const s of sessions) {
          const said = body?.of(s);
          if (said === undefined) continue;
          const full = rank(s, true);
          expect(full.rank).toBe(said);
          if (said !== null) expect(full.byText).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("leaves to sessionRanker what it cannot rule on, and the sessions that hold a word", () => {
    const sessions = [makeSummary({ firstMessage: "fix the parser" }), makeSummary({ firstMessage: "deploy" })];
    const ctx = rankingContext(fieldTextOf(sessions), sessions)!;
    expect(bodyRank(parseQuery("Parser"), ctx)).toBeUndefined();
    expect(bodyRank(parseQuery('"the parser"'), ctx)).toBeUndefined();
    expect(bodyRank(parseQuery("re:pars"), ctx)).toBeUndefined();
    expect(bodyRank(parseQuery("parser"))).toBeUndefined();
    const body = bodyRank(parseQuery("parser"), ctx)!;
    expect(body.of(sessions[0])).toBeUndefined();
    expect(body.of(sessions[1])).toBe(sessionRanker(parseQuery("parser"))(sessions[1], true).rank);
  });
});

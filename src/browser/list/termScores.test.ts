import { describe, expect, it, vi } from "vitest";
import * as query from "../../search/query.js";
import { makeSummary } from "../../../test/helpers/sessions.js";
import { searchPlan } from "../../search/plan.js";
import { fieldRanker } from "./termScores.js";

vi.mock("../../search/query.js", async (actual) => {
  const real = await actual<typeof import("../../search/query.js")>();
  return { ...real, matchSession: vi.fn(real.matchSession) };
});

const ctx = { keepFolded: true };
const sessions = [
  makeSummary({ name: "Parser cache rewrite", cwd: "/home/u/src/parser" }),
  makeSummary({ firstMessage: "why is the parser slow", cwd: "/home/u/pc" }),
  makeSummary({ firstMessage: "cache eviction", cwd: "/home/u/prs-cache", models: ["gpt-x"] }),
  makeSummary({ name: "p_a_r_s_e_r", firstMessage: "nothing", cwd: "/srv/cache" }),
  makeSummary({ firstMessage: "naïve café parsing", cwd: "/home/u/proj" }),
];

describe("each term's score kept for the next keys", () => {
  it("ranks every session as matchSession ranks it, at every key of a query typed", async () => {
    const real = await vi.importActual<typeof import("../../search/query.js")>("../../search/query.js");
    const typed = 'parser cache model:gpt "naive cafe" /pars(e|ing)/ prs cach today';
    for (let n = 0; n <= typed.length; n++) {
      const q = query.parseQuery(typed.slice(0, n));
      const rank = fieldRanker(q, ctx, sessions);
      sessions.forEach((s, i) => expect(rank(i)).toBe(real.matchSession(q, s, ctx)));
    }
  });

  it("ranks a session with its conversation's hit, and says what it needs of it, as the search plan does", () => {
    const typed = 'parser cache model:gpt "naive cafe" prs zebra';
    for (let n = 0; n <= typed.length; n++) {
      const q = query.parseQuery(typed.slice(0, n));
      const plan = searchPlan(q, ctx);
      const rank = fieldRanker(q, ctx, sessions);
      const words = plan.terms.length;
      for (let bits = 0; bits < 1 << words; bits++) {
        const held = plan.terms.map((_, k) => (bits & (1 << k)) !== 0);
        sessions.forEach((s, i) => expect(rank.held(i, held)).toEqual(plan.rank(s, held)));
      }
      sessions.forEach((s, i) => expect(rank.need(i)).toEqual(plan.needOf(s)));
    }
  });

  it("does not score a term again that the key before scored, nor a later term of a session the first fails", () => {
    const match = vi.mocked(query.matchSession);
    fieldRanker(query.parseQuery("zebra"), ctx, sessions)(0);
    match.mockClear();
    // "zebra" is kept; the session fails it: "cache" is not looked at.
    expect(fieldRanker(query.parseQuery("zebra cache"), ctx, sessions)(0)).toBeNull();
    expect(match).not.toHaveBeenCalled();
    fieldRanker(query.parseQuery("parser"), ctx, sessions)(0);
    match.mockClear();
    expect(fieldRanker(query.parseQuery("parser ca"), ctx, sessions)(0)).not.toBeNull();
    expect(match).toHaveBeenCalledTimes(1);
    // Another list of sessions: scored again.
    expect(fieldRanker(query.parseQuery("parser ca"), ctx, sessions.slice())(0)).not.toBeNull();
    expect(match).toHaveBeenCalledTimes(3);
  });
});

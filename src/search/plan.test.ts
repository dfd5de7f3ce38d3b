import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeSummary } from "../../test/helpers/sessions.js";
import { arbFields, arbQuery, arbText } from "../../test/helpers/search-arbitraries.js";
import { fieldTextOf, rankingContext } from "./field-text.js";
import { BODY_RANK, matchSession, parseQuery, TEXT_RANK, tierRank } from "./query.js";
import { rankBounds, restRank, searchPlan } from "./plan.js";

describe("searchPlan", () => {
  const titled = makeSummary({ firstMessage: "fix the parser", cwd: "/p" });
  const other = makeSummary({ firstMessage: "deploy", cwd: "/elsewhere" });

  it("a hit the row shows ranks above one only in the conversation", () => {
    const plan = searchPlan(parseQuery("parser"));
    const own = plan.rank(titled);
    const body = plan.rank(other, [true]);
    expect(own).toMatchObject({ byText: false });
    expect(body).toEqual({ rank: BODY_RANK, byText: true });
    expect(own.rank!).toBeGreaterThan(body.rank!);
    expect(plan.rank(other).rank).toBeNull();
    expect(plan.rank(other, [false]).rank).toBeNull();
  });

  it("a full-text hit counts only where the field filters hold", () => {
    const plan = searchPlan(parseQuery("cwd:elsewhere parser"));
    expect(plan.rank(other, [true]).byText).toBe(true);
    expect(plan.rank(makeSummary({ firstMessage: "x", cwd: "/p" }), [true])).toEqual({ rank: null, byText: false });
    expect(plan.needOf(makeSummary({ firstMessage: "x", cwd: "/p" }))).toBeNull();
  });

  it("each word may hit a different place, as in pi's /resume: the folder, the id or the name for one, the conversation for another", () => {
    const s = makeSummary({ id: "019ece00-aaaa", name: "auth work", firstMessage: "hello", cwd: "/home/u/研究" });
    for (const q of ["naive 研究", "019ece00 naive", "auth naive", "naive 研究 auth"]) {
      const plan = searchPlan(parseQuery(q));
      const need = plan.needOf(s)!;
      // Only the conversation can give it the word "naive".
      expect(need, q).toEqual(plan.terms.map((t) => t.kind === "word" && t.text === "naive"));
      expect(plan.rank(s, need).rank, q).not.toBeNull();
      expect(plan.rank(s, need).byText, q).toBe(true);
      // Without it, no match.
      expect(
        plan.rank(
          s,
          need.map(() => false),
        ).rank,
        q,
      ).toBeNull();
    }
    // The word the folder holds ranks as the folder's hit, the other as the conversation's.
    expect(searchPlan(parseQuery("naive 研究")).rank(s, [true, false]).rank).toBe(BODY_RANK + TEXT_RANK);
  });

  it("a word the fields hold only by scattered letters ranks by the conversation when it holds it", () => {
    const s = makeSummary({ firstMessage: "x", cwd: "/d/e/p/l/o/y" });
    const plan = searchPlan(parseQuery("deploy"));
    expect(plan.needOf(s)).toEqual([false]);
    const scattered = plan.rank(s).rank!;
    expect(scattered).toBeGreaterThan(0);
    expect(scattered).toBeLessThan(BODY_RANK);
    expect(plan.rank(s, [true])).toEqual({ rank: BODY_RANK, byText: true });
  });

  it("without the conversation, ranks as matchSession", () => {
    const text = arbText("abAB éı-/.\t", 6);
    fc.assert(
      fc.property(arbFields(text), arbQuery(text, [text.map((t) => `cwd:${t}`)]), (f, q) => {
        const s = makeSummary(f);
        const parsed = parseQuery(q);
        expect(searchPlan(parsed).rank(s).rank).toBe(matchSession(parsed, s));
      }),
      { numRuns: 1000 },
    );
  });
});

describe("restRank", () => {
  const text = arbText("abAB éı-/.\t", 6);
  const arbSession = arbFields(
    text,
    text.map((t) => `/${t}`),
  );
  const query = arbQuery(text, [text.map((t) => `cwd:${t}`)]);

  it("gives the rank the plan gives with every word held, for every session it does not leave to it", () => {
    fc.assert(
      fc.property(fc.array(arbSession, { maxLength: 6 }), query, (parts, q) => {
        const sessions = parts.map((p) => makeSummary(p));
        const ctx = rankingContext(fieldTextOf(sessions), sessions)!;
        const plan = searchPlan(parseQuery(q), ctx);
        const rest = restRank(plan, ctx);
        for (const s of sessions) {
          const said = rest?.of(s);
          if (said === undefined) continue;
          const full = plan.rank(
            s,
            plan.terms.map(() => true),
          );
          expect(full.rank).toBe(said);
          if (said !== null) expect(full.byText).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("leaves to the plan what it cannot rule on, and the sessions that hold a word", () => {
    const sessions = [makeSummary({ firstMessage: "fix the parser" }), makeSummary({ firstMessage: "deploy" })];
    const ctx = rankingContext(fieldTextOf(sessions), sessions)!;
    const rest = (q: string) => restRank(searchPlan(parseQuery(q), ctx), ctx);
    expect(rest("Parser")).toBeUndefined();
    expect(rest('"the parser"')).toBeUndefined();
    expect(rest("re:pars")).toBeUndefined();
    expect(restRank(searchPlan(parseQuery("parser")))).toBeUndefined();
    const r = rest("parser")!;
    expect(r.of(sessions[0])).toBeUndefined();
    expect(r.of(sessions[1])).toBe(searchPlan(parseQuery("parser")).rank(sessions[1], [true]).rank);
  });
});

describe("rankBounds", () => {
  it("is at least the rank the plan gives whatever the conversation holds, and that rank where it says exact", () => {
    const text = arbText("abAB é-/. ", 5);
    fc.assert(
      fc.property(
        fc.array(arbFields(text), { minLength: 1, maxLength: 8 }),
        arbQuery(text, [text.map((t) => `cwd:${t}`), text.map((t) => `re:${t}`), fc.constant("after:2020-01-01")]),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        (fields, q, held) => {
          const sessions = fields.map((f) => makeSummary(f));
          const ctx = rankingContext(fieldTextOf(sessions), sessions)!;
          const plan = searchPlan(parseQuery(q), ctx);
          // A session the context does not know is bounded too.
          const scoped = [...sessions, makeSummary(fields[0])];
          const { bound, exact } = rankBounds(plan, scoped, ctx)!;
          for (const [k, s] of scoped.entries()) {
            const most = bound[k];
            for (const h of [held.slice(0, plan.terms.length), undefined]) {
              const rank = plan.rank(s, h).rank;
              if (rank !== null) expect(rank).toBeLessThanOrEqual(most);
              if (exact[k] === 1) expect(rank).toBe(most);
            }
          }
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("is exact for a word a first message holds, not for one a name holds, and needs the field text's context", () => {
    const sessions = [
      makeSummary({ firstMessage: "fix the parser" }),
      makeSummary({ name: "parser work", firstMessage: "x" }),
      makeSummary({ firstMessage: "x" }),
    ];
    const ctx = rankingContext(fieldTextOf(sessions), sessions)!;
    const plan = searchPlan(parseQuery("parser"), ctx);
    const { bound, exact } = rankBounds(plan, sessions, ctx)!;
    expect([...bound]).toEqual([TEXT_RANK, bound[1], BODY_RANK]);
    expect(bound[1]).toBeGreaterThan(TEXT_RANK);
    expect([...exact]).toEqual([1, 0, 0]);
    expect(rankBounds(searchPlan(parseQuery("parser")), sessions)).toBeUndefined();
  });

  it("bounds a phrase by the conversation's rank where a field lacks one of its words, by a name's best where all hold it", () => {
    const sessions = [
      makeSummary({ firstMessage: "fix the bug" }),
      makeSummary({ firstMessage: "fix the parser" }),
      makeSummary({ name: "parser fix", firstMessage: "x" }),
    ];
    const ctx = rankingContext(fieldTextOf(sessions), sessions)!;
    const { bound, exact } = rankBounds(searchPlan(parseQuery('"fix parser"'), ctx), sessions, ctx)!;
    expect([...bound]).toEqual([BODY_RANK, tierRank(0, -Infinity), tierRank(0, -Infinity)]);
    expect([...exact]).toEqual([0, 0, 0]);
  });

  it("looks up only a phrase's longest word (its short words are held by nearly every session)", () => {
    const sessions = [
      makeSummary({ firstMessage: "how do i fix the bug" }),
      makeSummary({ firstMessage: "the parser" }),
    ];
    const ctx = rankingContext(fieldTextOf(sessions), sessions)!;
    const asked: string[] = [];
    const counted = { ...ctx, whereHeld: (w: string) => (asked.push(w), ctx.whereHeld(w)) };
    const { bound } = rankBounds(searchPlan(parseQuery('"how do i fix the parser"'), ctx), sessions, counted)!;
    expect(asked).toEqual(["parser"]);
    // The second lacks "fix": a looser bound, which is still one.
    expect([...bound]).toEqual([BODY_RANK, tierRank(0, -Infinity)]);
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeSummary } from "../../test/helpers/sessions.js";
import { arbFields, arbQuery, arbText } from "../../test/helpers/search-arbitraries.js";
import { bestFirst, rankAll, type BodySource } from "./best.js";
import { fieldTextOf, rankingContext } from "./field-text.js";
import type { SearchTarget } from "./fulltext.js";
import { searchPlan } from "./plan.js";
import { parseQuery } from "./query.js";

/*
 * bestFirst ranks only what the first `limit` need (the search command with the index);
 * rankAll ranks every session (without it). The two must give the same list, whatever the
 * conversations hold and however loosely the index narrows them.
 */

const text = arbText("abAB é-/.", 5);
const arbSession = fc.record({
  fields: arbFields(
    text,
    text.map((t) => `/${t}`),
  ),
  // A few dates, so that ties are broken by the path.
  day: fc.integer({ min: 0, max: 3 }),
  // Per text term (up to three): whether the conversation holds it, and whether the index says it may.
  holds: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  loose: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
});

/** Per text term (up to three): whether a session's conversation holds it, and whether the index says it may. */
interface Conversation {
  holds: boolean[];
  loose: boolean[];
}

/** What a search of the conversations finds for a session that needs `need` of its `terms`, and the body source saying so. */
function conversations(truth: ReadonlyMap<SearchTarget, Conversation>, terms: number) {
  const hitOf = (t: SearchTarget, need: readonly boolean[] | null) => {
    const held = truth.get(t)!.holds.slice(0, terms);
    if (!need || need.some((n, k) => n && !held[k]) || !held.some(Boolean)) return null;
    return { held };
  };
  const body: BodySource<{ held: boolean[] }> = {
    mayHold: (t) =>
      truth
        .get(t)!
        .holds.slice(0, terms)
        .map((h, k) => h || truth.get(t)!.loose[k]),
    check: async (t, need) => hitOf(t, need),
  };
  return { hitOf, body };
}

describe("bestFirst", () => {
  it("ranks only the sessions that can be among the first `limit`: not every holder of a word in its first message", async () => {
    // Their dates read through a count (a sort of the whole group reads each many times);
    // bestFirst is given them by `timeOf`, as the command is.
    let dates = 0;
    const times = new Map<SearchTarget, number>();
    const sessions = Array.from({ length: 2000 }, (_, i) => {
      const s = makeSummary({
        path: `/store/p/${i}.jsonl`,
        firstMessage: i % 2 === 0 ? `fix the parser ${i}` : "something else",
      });
      const modified = new Date(Date.UTC(2026, 0, 1, 0, i % 7));
      times.set(s, modified.getTime());
      return Object.defineProperty(s, "modified", { get: () => (dates++, modified) });
    });
    const ctx = rankingContext(fieldTextOf(sessions), sessions)!;
    const plan = searchPlan(parseQuery("parser"), ctx);
    let ranked = 0;
    let asked = 0;
    const counted = { ...plan, rank: (...a: Parameters<typeof plan.rank>) => (ranked++, plan.rank(...a)) };
    const body: BodySource<{ held: boolean[] }> = { mayHold: () => (asked++, [true]), check: async () => null };
    const limit = 5;
    const { found } = await bestFirst(counted, sessions, body, limit, ctx, (s) => times.get(s)!);
    const [rankedBest, datesBest, askedBest] = [ranked, dates, asked];
    expect(found.map((f) => f.s.path)).toEqual(
      rankAll(plan, sessions, () => undefined)
        .slice(0, limit)
        .map((f) => f.s.path),
    );
    expect(rankedBest).toBeLessThanOrEqual(limit);
    expect(askedBest).toBeLessThanOrEqual(limit);
    expect(datesBest).toBeLessThanOrEqual(4 * limit);
  });

  // Many sessions too: ties of rank and date, and a line longer than the page.
  it.each([
    [12, 1500],
    [80, 200],
  ])(
    "gives rankAll's first `limit` sessions at the same ranks, with and without the field text's context (up to %i sessions)",
    async (most, runs) => {
      await fc.assert(
        fc.asyncProperty(
          // size "max": fast-check's default size draws at most 10 elements whatever maxLength says.
          fc.array(arbSession, { maxLength: most, size: "max" }),
          arbQuery(text, [text.map((t) => `cwd:${t}`)]),
          fc.integer({ min: 1, max: most + 1 }),
          fc.boolean(),
          async (given, q, limit, withContext) => {
            const sessions = given.map((g, i) =>
              makeSummary({
                ...g.fields,
                path: `/store/p/${i}.jsonl`,
                modified: new Date(Date.UTC(2026, 0, 1 + g.day)),
              }),
            );
            const truth = new Map<SearchTarget, Conversation>(sessions.map((s, i) => [s, given[i]]));
            const ctx = withContext ? rankingContext(fieldTextOf(sessions), sessions) : undefined;
            const plan = searchPlan(parseQuery(q), ctx);
            const { hitOf, body } = conversations(truth, plan.terms.length);
            const all = rankAll(plan, sessions, (s) => hitOf(s, plan.needOf(s))?.held);
            const { found } = await bestFirst(plan, sessions, plan.terms.length > 0 ? body : null, limit, ctx);
            const said = (list: typeof all) => list.map((f) => [f.s.path, f.rank]);
            expect(said(found)).toEqual(said(all.slice(0, limit)));
          },
        ),
        { numRuns: runs },
      );
    },
  );
});

describe("bestFirst with many equal dates and ranks", () => {
  // Fields from a few texts, so that most sessions fall into a handful of groups of the same
  // bound (exact ones among them), and two dates, so that most ties are broken by the path.
  const arbMany = fc.record({
    name: fc.constantFrom(undefined, "parser", "fix it", "prs"),
    firstMessage: fc.constantFrom("fix the parser", "parser", "fix", "x", "parser fix bug"),
    cwd: fc.constantFrom("/p", "/parser"),
    later: fc.boolean(),
    inScope: fc.boolean(),
    holds: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    loose: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  });

  it("gives rankAll's first `limit`, a scope of the context's sessions or all of them", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbMany, { minLength: 1, maxLength: 150, size: "max" }),
        fc.constantFrom("parser", "fix parser", "fix", '"fix parser"', "parser after:2026-01-01", "'parser", "prs x"),
        fc.integer({ min: 1, max: 160 }),
        fc.boolean(),
        fc.boolean(),
        async (given, q, limit, scopedOnly, byTimeOf) => {
          // Paths not in the list's order.
          const sessions = given.map((g, i) =>
            makeSummary({
              name: g.name,
              firstMessage: g.firstMessage,
              cwd: g.cwd,
              path: `/store/p/${(i * 7919) % 1009}.jsonl`,
              modified: new Date(Date.UTC(2026, 0, g.later ? 2 : 1)),
            }),
          );
          const truth = new Map<SearchTarget, (typeof given)[number]>(sessions.map((s, i) => [s, given[i]]));
          const ctx = rankingContext(fieldTextOf(sessions), sessions)!;
          const scoped = scopedOnly ? sessions.filter((s) => truth.get(s)!.inScope) : sessions;
          const plan = searchPlan(parseQuery(q), ctx);
          const { hitOf, body } = conversations(truth, plan.terms.length);
          const all = rankAll(plan, scoped, (s) => hitOf(s, plan.needOf(s))?.held);
          const timeOf = byTimeOf ? (s: SearchTarget) => truth.get(s)!.later : undefined;
          const { found } = await bestFirst(
            plan,
            scoped,
            body,
            limit,
            ctx,
            timeOf && ((s) => Date.UTC(2026, 0, timeOf(s) ? 2 : 1)),
          );
          const said = (list: typeof all) => list.map((f) => [f.s.path, f.rank]);
          expect(said(found)).toEqual(said(all.slice(0, limit)));
        },
      ),
      { numRuns: 600 },
    );
  });
});

import { describe, expect, it } from "vitest";
import { parseQuery } from "../../search/query.js";
import { decodeSearchAnswer, encodeSearchAnswer, searchAnswerKey, type SearchQuestion } from "./search-answer.js";

const q = (over: Partial<SearchQuestion> = {}): SearchQuestion => ({
  text: "deploy",
  scope: "",
  limit: 20,
  tools: false,
  ...over,
});
const key = (over: Partial<SearchQuestion> = {}) => searchAnswerKey(q(over), parseQuery(q(over).text))!;

describe("searchAnswerKey", () => {
  it("is another question for other words, scope, limit or tools", () => {
    const ids = [
      key(),
      key({ text: "deploy x" }),
      key({ scope: "/w" }),
      key({ scope: "/v" }),
      key({ limit: 5 }),
      key({ tools: true }),
    ].map((k) => k.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(key().id).toBe(key().id);
  });

  it("keeps no answer of a query that depends on the clock, and none of a bad one", () => {
    for (const text of ["deploy today", "deploy 7d", "re:("])
      expect(searchAnswerKey(q({ text }), parseQuery(text))).toBeUndefined();
    expect(searchAnswerKey(q({ text: "after:2026-01-02" }), parseQuery("after:2026-01-02"))).toBeDefined();
  });

  it("counts a named day as the instant it resolved to", () => {
    const text = "after:2026-01-02";
    const there = parseQuery(text);
    const elsewhere = { terms: there.terms.map((t) => (t.kind === "date" ? { ...t, from: t.from! + 3_600_000 } : t)) };
    expect(searchAnswerKey(q({ text }), elsewhere)!.id).not.toBe(searchAnswerKey(q({ text }), there)!.id);
  });

  it("spreads questions over a few slots", () => {
    const slots = new Set(Array.from({ length: 500 }, (_, i) => key({ text: `w${i}` }).slot));
    expect(slots.size).toBe(16);
  });
});

describe("a kept search answer", () => {
  it("reads back for its own question only", () => {
    const mine = key();
    const a = encodeSearchAnswer(mine, "[1]\n");
    expect(Buffer.from(decodeSearchAnswer(a, mine)!).toString()).toBe("[1]\n");
    expect(decodeSearchAnswer(a, key({ limit: 3 }))).toBeUndefined();
    expect(decodeSearchAnswer({ out: Buffer.from("torn"), err: "" }, mine)).toBeUndefined();
  });
});

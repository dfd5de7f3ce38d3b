import { describe, expect, it } from "vitest";
import { makeSummary } from "../../test/helpers/sessions.js";
import { assistant, user, writeSession } from "../../test/helpers/session-file.js";
import { searchFile, textTerms } from "./fulltext.js";
import { matchRanges } from "./match-ranges.js";
import { compilePattern } from "./pattern.js";
import { matchSession, parseQuery, REGEX_FIELD_CHARS } from "./query.js";

/*
 * Patterns a backtracking engine takes minutes (or longer) over: each must answer at once.
 * 2 s is a deadline for a loaded CI machine; each takes milliseconds.
 */
const EVIL: [string, string][] = [
  ["(a+)+$", "a".repeat(40) + "b"],
  ["(\\w+\\s?)+$", "word ".repeat(30) + "!"],
  [".*.*.*.*.*.*=", "x".repeat(5000)],
  ["(a|aa)+$", "a".repeat(60) + "b"],
  ["(.*a){20}", "a".repeat(25)],
];

function timed<T>(f: () => T): { value: T; ms: number } {
  const t0 = performance.now();
  const value = f();
  return { value, ms: performance.now() - t0 };
}

describe("compilePattern", () => {
  it.each(EVIL)("%s finishes at once over a text that makes a backtracking engine hang", (source, text) => {
    const p = compilePattern(source);
    const { ms } = timed(() => [p.test(text), p.find(text), p.test(text.repeat(200))]);
    expect(ms).toBeLessThan(2000);
  });
  it("matches case-insensitively, as re: always has", () => {
    const p = compilePattern("fl.ky");
    expect(p.test("the FLAKY test")).toBe(true);
    expect(p.find("the FLAKY test")).toEqual({ at: 4, len: 5 });
    expect(compilePattern("ärger").test("ÄRGER")).toBe(true);
  });
  it("reports positions in UTF-16 units, as the text's own indices", () => {
    const text = "😀 café parser";
    const hit = compilePattern("pars\\w+").find(text)!;
    expect(text.slice(hit.at, hit.at + hit.len)).toBe("parser");
    expect(compilePattern("x").find("x😀x", 1)).toEqual({ at: 3, len: 1 });
  });
  it.each([
    ["(?=x)", /^lookahead and lookbehind are not supported: `\(\?=`$/],
    ["a(?!x)", /^lookahead and lookbehind are not supported: `\(\?!`$/],
    ["(?<!a)b", /^lookahead and lookbehind are not supported: `\(\?<!`$/],
    ["(a)\\1", /^backreferences are not supported: `\\1`$/],
    ["\\q", /^invalid escape sequence: `\\q`$/],
    ["([", /missing closing \]/],
    ["a**", /invalid nested repetition/],
    ["x{5000}", /invalid repeat count/],
  ])("refuses %s, saying why", (source, why) => {
    expect(() => compilePattern(source)).toThrow(why);
  });
});

describe("re: in a query", () => {
  it("says a refused pattern's reason and that re: takes RE2's syntax", () => {
    const q = parseQuery("re:(?<=a)b");
    expect(q.error).toMatch(
      /^invalid pattern re:\(\?<=a\)b: lookahead and lookbehind are not supported: `\(\?<=` \(re: takes RE2's syntax\)$/,
    );
    expect(q.terms).toEqual([{ kind: "never" }]);
  });
  it.each(EVIL)("%s: the list's match and its marks finish at once", (source, text) => {
    const q = parseQuery(`re:${source}`);
    const s = makeSummary({ name: text, firstMessage: text, cwd: `/home/${text}`, id: text });
    const { ms } = timed(() => {
      matchSession(q, s);
      matchRanges(q, text, "text");
    });
    expect(ms).toBeLessThan(2000);
  });
  it("marks every match, an empty one none", () => {
    expect(matchRanges(parseQuery("re:b+"), "abbcb", "text")).toEqual([
      [1, 3],
      [4, 5],
    ]);
    expect(matchRanges(parseQuery("re:x*"), "abc", "text")).toEqual([]);
  });
  it("a full-text search of a session holding the text finishes at once", async () => {
    const evil = "a".repeat(40) + "b";
    const s = writeSession([user("u1", null, evil), assistant("a1", "u1", `${evil}\n`.repeat(100))]);
    try {
      const t0 = performance.now();
      expect(await searchFile(s.path, textTerms(parseQuery("re:(a+)+$")), true)).toBeNull();
      expect((await searchFile(s.path, textTerms(parseQuery("re:(a+)+b$")), true))?.snippet).toContain("aaab");
      expect(performance.now() - t0).toBeLessThan(2000);
    } finally {
      s.cleanup();
    }
  });

  it("the list looks at a field's first REGEX_FIELD_CHARS characters, not all of a 50 MB first message", () => {
    const long = "x".repeat(50 * 2 ** 20) + "needle";
    const s = makeSummary({ firstMessage: `hay ${long}` });
    expect(matchSession(parseQuery("re:hay"), s)).not.toBeNull();
    // Past the head: the full-text search's, which reads the message in the background.
    expect(matchSession(parseQuery("re:needle"), s)).toBeNull();
    expect(REGEX_FIELD_CHARS).toBeGreaterThanOrEqual(1000);
  });
});

import { describe, expect, it } from "vitest";
import { matchRanges, splitByRanges } from "./match-ranges.js";
import { parseQuery } from "./query.js";

const r = (q: string, text: string, field: "name" | "cwd" | "text" = "text") => matchRanges(parseQuery(q), text, field);

describe("matchRanges", () => {
  it("marks every case-insensitive occurrence of a word", () => {
    expect(r("ab", "xAByab")).toEqual([
      [1, 3],
      [4, 6],
    ]);
  });
  it("falls back to fuzzy letters in a name or a folder, never in message text", () => {
    expect(r("dply", "deploy", "name")).toEqual([
      [0, 1],
      [2, 4],
      [5, 6],
    ]);
    expect(r("dply", "deploy", "text")).toEqual([]);
  });
  it("joins overlapping ranges of several terms", () => {
    expect(r("abc bcd", "xabcdx")).toEqual([[1, 5]]);
  });
  it("phrases match across white space; regexes every match", () => {
    expect(r('"fix the"', "we fix  the bug")).toEqual([[3, 11]]);
    expect(r("re:b.g", "bag bug")).toEqual([
      [0, 3],
      [4, 7],
    ]);
    expect(r("re:x*", "abc")).toEqual([]); // empty matches mark nothing (and end)
  });
  it("field filters mark their own field only", () => {
    expect(r("name:fix", "fix it", "name")).toEqual([[0, 3]]);
    expect(r("name:fix", "fix it", "text")).toEqual([]);
    expect(r("cwd:src", "/home/src", "cwd")).toEqual([[6, 9]]);
  });
  it("takes regex metacharacters in words literally", () => {
    expect(r("a.b", "axb a.b")).toEqual([[4, 7]]);
  });
});

describe("splitByRanges", () => {
  it("cuts text into plain and hit pieces", () => {
    expect(
      splitByRanges("hello world", [
        [0, 2],
        [6, 11],
      ]),
    ).toEqual([
      { text: "he", hit: true },
      { text: "llo ", hit: false },
      { text: "world", hit: true },
    ]);
    expect(splitByRanges("abc", [[1, 99]])).toEqual([
      { text: "a", hit: false },
      { text: "bc", hit: true },
    ]);
  });
});

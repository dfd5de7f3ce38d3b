import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { abbreviationMatch, closeMatch, closeMatchInFull, fuzzyMatch } from "./fuzzy.js";

describe("fuzzyMatch (pi 1.5.2's)", () => {
  it("needs the letters in order, anywhere, case-insensitively", () => {
    expect(fuzzyMatch("rfctr", "Refactor")?.positions).toEqual([0, 2, 4, 5, 7]);
    expect(fuzzyMatch("rtcf", "refactor")).toBeNull();
    expect(fuzzyMatch("ab", "a" + "x".repeat(50) + "b")).not.toBeNull();
    expect(fuzzyMatch("toolong", "short")).toBeNull();
  });
  it("prefers a contiguous occurrence, and reports where it is", () => {
    const m = fuzzyMatch("par", "xpxaxr parser")!;
    expect(m.positions).toEqual([7, 8, 9]);
  });
  it("scores word starts and runs better than gaps", () => {
    expect(fuzzyMatch("ws", "web server")!.score).toBeLessThan(fuzzyMatch("ws", "rowsx")!.score + 100);
    expect(fuzzyMatch("web", "web-app")!.score).toBeLessThan(fuzzyMatch("web", "w-e-b")!.score);
    expect(fuzzyMatch("abc", "abc")!.score).toBeLessThan(fuzzyMatch("abc", "abcd")!.score);
  });
  it("tries letters and digits swapped", () => {
    expect(fuzzyMatch("v2", "2v")).not.toBeNull();
    expect(fuzzyMatch("abc12", "12abc")!.score).toBeGreaterThan(fuzzyMatch("12abc", "12abc")!.score);
  });
});

describe("abbreviationMatch", () => {
  it("takes letters that start words or run on from the one before", () => {
    expect(abbreviationMatch("rcp", "react-component-props")?.positions).toEqual([0, 6, 16]);
    expect(abbreviationMatch("s5", "session-5")?.positions).toEqual([0, 8]);
    expect(abbreviationMatch("sess5", "session5")?.positions).toEqual([0, 1, 2, 3, 7]);
    expect(abbreviationMatch("fb", "fooBar")?.positions).toEqual([0, 3]);
  });
  it("refuses letters strewn through a text", () => {
    expect(abbreviationMatch("keyboard", "/home/kevin/my/build/out/and/a/red/dot")).toBeNull();
    expect(abbreviationMatch("s5", "/home/u/projects/x15")).toBeNull();
    expect(abbreviationMatch("oo", "foo")).toBeNull();
  });
});

describe("closeMatch", () => {
  it("takes abbreviations and compact runs, swapped letters and digits too, and nothing looser", () => {
    expect(closeMatch("dply", "deploy")).not.toBeNull();
    expect(closeMatch("rcp", "react-component-props")).not.toBeNull();
    expect(closeMatch("2ab", "/srv/ab2")).not.toBeNull();
    expect(closeMatch("keyboard", "/home/kevin/my/build/out/and/a/red/dot")).toBeNull();
  });

  it("is that, for any text: letters not even in order are turned away at once, and only those", () => {
    const ch = fc.constantFrom(..."ab12-/ Kİ".split(""), "\ud83d", "\ude00", "😀");
    const text = (max: number) => fc.array(ch, { maxLength: max }).map((a) => a.join(""));
    fc.assert(
      fc.property(text(5), text(12), (q, t) => {
        expect(closeMatch(q, t)).toEqual(closeMatchInFull(q, t));
      }),
      { numRuns: 3000 },
    );
  });
});

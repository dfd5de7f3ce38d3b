import { describe, expect, it } from "vitest";
import { fuzzyMatch } from "./fuzzy.js";

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

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { settler } from "./settle.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("settler", () => {
  it("runs once a burst is over", () => {
    const runs: number[] = [];
    const s = settler(() => runs.push(Date.now()), { quietMs: 120, maxWaitMs: 500 });
    const t0 = Date.now();
    for (let i = 0; i < 3; i++) {
      s.poke();
      vi.advanceTimersByTime(30);
    }
    vi.advanceTimersByTime(200);
    expect(runs.map((t) => t - t0)).toEqual([60 + 120]);
  });

  it("under steady pokes runs at most maxWaitMs after the first unanswered one (a plain debounce never runs)", () => {
    const runs: number[] = [];
    const s = settler(() => runs.push(Date.now()), { quietMs: 120, maxWaitMs: 500 });
    const t0 = Date.now();
    // Twenty events a second for five seconds.
    for (let i = 0; i < 100; i++) {
      s.poke();
      vi.advanceTimersByTime(50);
    }
    expect(runs.length).toBeGreaterThanOrEqual(9);
    const at = runs.map((t) => t - t0);
    expect(at[0]).toBe(500);
    for (let i = 1; i < at.length; i++) expect(at[i] - at[i - 1]).toBeLessThanOrEqual(550);
  });

  it("cancel drops what is pending", () => {
    let runs = 0;
    const s = settler(() => runs++, { quietMs: 100, maxWaitMs: 300 });
    s.poke();
    s.cancel();
    vi.advanceTimersByTime(1000);
    expect(runs).toBe(0);
    s.poke();
    vi.advanceTimersByTime(100);
    expect(runs).toBe(1);
  });
});

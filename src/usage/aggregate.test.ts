import { describe, expect, it } from "vitest";
import type { UsageSlice } from "../model/types.js";
import { aggregateUsage, type UsageSource } from "./aggregate.js";
import { LocalDays, parseSinceDay } from "./day.js";

const slice = (
  day: string,
  model: string,
  input: number,
  cost: number,
  extra: Partial<UsageSlice> = {},
): UsageSlice => ({
  day,
  model,
  input,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  cost,
  ...extra,
});

const A: UsageSource = {
  cwd: "/a",
  usage: [slice("2026-11-01", "sonnet", 100, 1, { output: 10 }), slice("2026-11-02", "gpt", 50, 0.5)],
};
const B: UsageSource = { cwd: "/b", usage: [slice("2026-11-02", "sonnet", 200, 3, { cacheRead: 5, cacheWrite: 1 })] };
const P: UsageSource = { cwd: "/a", provisional: true };

describe("aggregateUsage", () => {
  it("totals every slice and groups by day, newest first", () => {
    const r = aggregateUsage([A, B, P], "day");
    expect(r.total).toEqual({ input: 350, output: 10, cacheRead: 5, cacheWrite: 1, total: 366, cost: 4.5 });
    expect(r.sessions).toBe(2);
    expect(r.pending).toBe(1);
    expect(r.groups.map((g) => [g.key, g.sessions, g.amount.total, g.amount.cost])).toEqual([
      ["2026-11-02", 2, 256, 3.5],
      ["2026-11-01", 1, 110, 1],
    ]);
    expect(r.groups[0].models.map((m) => m.model)).toEqual(["sonnet", "gpt"]);
  });
  it("groups by folder and by model, the largest cost first", () => {
    expect(aggregateUsage([A, B], "folder").groups.map((g) => [g.key, g.amount.cost])).toEqual([
      ["/b", 3],
      ["/a", 1.5],
    ]);
    const m = aggregateUsage([A, B], "model");
    expect(m.groups.map((g) => [g.key, g.sessions, g.amount.input])).toEqual([
      ["sonnet", 2, 300],
      ["gpt", 1, 50],
    ]);
    expect(m.models.map((x) => x.model)).toEqual(["sonnet", "gpt"]);
  });
  it("counts from a day on with since, never undated usage", () => {
    const undated: UsageSource = { cwd: "/c", usage: [slice("", "", 7, 7)] };
    const r = aggregateUsage([A, B, undated], "day", { since: "2026-11-02" });
    expect(r.groups.map((g) => g.key)).toEqual(["2026-11-02"]);
    expect(r.total.cost).toBe(3.5);
    expect(r.withUsage).toBe(2);
    expect(aggregateUsage([undated, A], "day").groups.map((g) => g.key)).toEqual(["2026-11-02", "2026-11-01", ""]);
  });
  it("is empty for no sessions", () => {
    const r = aggregateUsage([], "model");
    expect(r.groups).toEqual([]);
    expect(r.total.total).toBe(0);
  });
});

describe("local days", () => {
  it("names the local calendar day of a time, and only real days parse", () => {
    const days = new LocalDays();
    const t = new Date(2026, 10, 23, 23, 59).getTime();
    expect(days.of(t)).toBe("2026-11-23");
    expect(days.of(t + 60_000)).toBe("2026-11-24");
    expect(days.of(t - 1000)).toBe("2026-11-23");
    expect(days.of(Number.NaN)).toBe("");
    expect(parseSinceDay("2026-02-29")).toBeUndefined();
    expect(parseSinceDay("2028-02-29")).toBe("2028-02-29");
    expect(parseSinceDay("2026-1-1")).toBeUndefined();
    const now = new Date(2026, 10, 24, 15, 30);
    expect(parseSinceDay("today", now)).toBe("2026-11-24");
    expect(parseSinceDay("7d", now)).toBe("2026-11-18");
    expect(parseSinceDay("1d", now)).toBe("2026-11-24");
    expect(parseSinceDay("0d", now)).toBeUndefined();
  });
});

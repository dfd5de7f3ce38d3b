import { describe, expect, it } from "vitest";
import { formatAge, formatBytes, formatCost, formatTokens } from "./format.js";

describe("formatAge", () => {
  const now = Date.parse("2026-11-21T12:00:00Z");
  const ago = (sec: number) => formatAge(new Date(now - sec * 1000), now);
  it("uses pi's picker buckets", () => {
    expect(ago(5)).toBe("now");
    expect(ago(5 * 60)).toBe("5m");
    expect(ago(3 * 3600)).toBe("3h");
    expect(ago(2 * 86400)).toBe("2d");
    expect(ago(15 * 86400)).toBe("2w");
    expect(ago(65 * 86400)).toBe("2mo");
    expect(ago(800 * 86400)).toBe("2y");
  });
  it("says ? for an invalid date and never goes negative", () => {
    expect(formatAge(new Date(NaN), now)).toBe("?");
    expect(formatAge(new Date(now + 60_000), now)).toBe("now");
  });
});

describe("sizes and money", () => {
  it("formats bytes, tokens and cost compactly", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(8118)).toBe("7.9 KB");
    expect(formatBytes(3 * 1024 * 1024 * 1024)).toBe("3.0 GB");
    expect(formatTokens(950)).toBe("950");
    expect(formatTokens(48_000)).toBe("48k");
    expect(formatTokens(2_500_000)).toBe("2.5M");
    expect(formatCost(0)).toBe("$0");
    expect(formatCost(0.004)).toBe("<$0.01");
    expect(formatCost(1.234)).toBe("$1.23");
  });
});

describe("compact sizes for list rows", () => {
  it("fit in five columns", () => {
    expect(formatBytes(512, true)).toBe("512B");
    expect(formatBytes(1536, true)).toBe("1.5K");
    expect(formatBytes(34 * 1024, true)).toBe("34K");
    expect(formatBytes(1.5 * 1024 * 1024, true)).toBe("1.5M");
    expect(formatBytes(999 * 1024 * 1024, true)).toBe("999M");
  });
});

describe("words and numbers (issue 20)", () => {
  it("one plural rule: 1 branch, 2 branches, 1 label, 1,234 sessions", async () => {
    const { plural } = await import("./format.js");
    expect(plural(1, "branch")).toBe("1 branch");
    expect(plural(2, "branch")).toBe("2 branches");
    expect(plural(1, "label")).toBe("1 label");
    expect(plural(0, "label")).toBe("0 labels");
    expect(plural(1234, "session")).toBe("1,234 sessions");
  });
  it("tokens in billions read as B; raw counts grouped by thousands; no cost reads —", async () => {
    const { formatTokens, groupDigits, formatSessionCost } = await import("./format.js");
    expect(formatTokens(1_786_200_000)).toBe("1.8B");
    expect(formatTokens(346_884_995)).toBe("346.9M");
    expect(groupDigits(346884995)).toBe("346,884,995");
    // Whole numbers grouped by hand, as toLocaleString groups them.
    const locale = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 6 });
    for (const n of [
      0,
      -0,
      7,
      -7,
      999,
      -999,
      1000,
      -1000,
      12345,
      999999,
      1e6,
      -123456789,
      2 ** 53 - 1,
      2 ** 53,
      1e21,
      1.5,
      -0.25,
    ])
      expect(groupDigits(n)).toBe(locale(n));
    expect(formatSessionCost(0)).toBe("—");
    expect(formatSessionCost(0.0123)).toBe("$0.0123");
  });
});

describe("grouped money and ages in sentences (QA pass)", () => {
  it("groups the dollars of a cost by thousands", async () => {
    const { formatCostExact, formatSessionCost, groupFixed } = await import("./format.js");
    expect(formatCost(1774.012)).toBe("$1,774.01");
    expect(formatCost(1_234_567.891)).toBe("$1,234,567.89");
    expect(formatCost(999.994)).toBe("$999.99");
    expect(formatSessionCost(12345.5)).toBe("$12,345.50");
    expect(formatSessionCost(0.5)).toBe("$0.5000");
    expect(groupFixed(-1234.5, 1)).toBe("-1,234.5");
    expect(groupFixed(123, 0)).toBe("123");
    expect(groupFixed(1e21, 2)).toBe("1e+21");
    expect(formatCostExact(0.043)).toBe("$0.043");
    expect(formatCostExact(1774.0123456)).toBe("$1,774.012346");
    expect(formatCostExact(2000)).toBe("$2,000");
    expect(formatCostExact(0)).toBe("$0");
  });
  it("an age in a sentence says 'just now', never 'now ago'", async () => {
    const { formatAgo } = await import("./format.js");
    const now = Date.parse("2026-11-21T12:00:00Z");
    expect(formatAgo(new Date(now - 5_000), now)).toBe("just now");
    expect(formatAgo(new Date(now - 5 * 60_000), now)).toBe("5m ago");
    expect(formatAgo(new Date(NaN), now)).toBe("?");
  });
});

import { describe, expect, it } from "vitest";
import { aggregateUsage, type UsageSource } from "../../src/usage/aggregate.js";
import { displayWidth } from "../../src/text/sanitize.js";
import { chartRows, legendItems, MAX_SLOTS, SLOT_GLYPHS, totalsText } from "./chartRows.js";

const slice = (day: string, model: string, input: number, cost: number) => ({
  day,
  model,
  input,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  cost,
});

const sessions: UsageSource[] = [
  { cwd: "/home/u/a", usage: [slice("2026-11-01", "sonnet", 1000, 2), slice("2026-11-01", "gpt", 3000, 1)] },
  { cwd: "/home/u/a-much-longer-folder-name-that-will-not-fit", usage: [slice("2026-11-02", "sonnet", 500, 0.5)] },
];

const rowText = (r: ReturnType<typeof chartRows>["rows"][number]) =>
  r.label + r.pieces.map((p) => p.text).join("") + r.pad + r.values;

describe("chartRows", () => {
  it.each([30, 60, 117])("makes every row exactly %i cells wide", (width) => {
    for (const by of ["day", "folder", "model"] as const) {
      for (const metric of ["cost", "tokens"] as const) {
        const c = chartRows(aggregateUsage(sessions, by), metric, width);
        for (const r of c.rows) expect(displayWidth(rowText(r)), rowText(r)).toBe(width);
      }
    }
  });
  it("stacks each bar by model, scaled to the largest group by the chosen metric", () => {
    const r = aggregateUsage(sessions, "day");
    const cost = chartRows(r, "cost", 60);
    // 2026-11-02 ($0.50) then 2026-11-01 ($3: sonnet $2 + gpt $1)
    expect(cost.rows.map((x) => x.key)).toEqual(["2026-11-02", "2026-11-01"]);
    const full = cost.rows[1].pieces;
    expect(full.map((p) => p.segment)).toEqual([0, 1]);
    expect(Math.abs(displayWidth(full[0].text) - 2 * displayWidth(full[1].text))).toBeLessThanOrEqual(2);
    expect(cost.rows[0].values).toMatch(/\$0\.50 +500$/);
    const tokens = chartRows(r, "tokens", 60);
    // by tokens gpt (3000) outweighs sonnet (1000) on the first day
    const t = tokens.rows[1].pieces;
    expect(Math.abs(displayWidth(t[1].text) - 3 * displayWidth(t[0].text))).toBeLessThanOrEqual(3);
  });
  it("keeps a host's name on its folder when the folder is cut", () => {
    const there: UsageSource[] = [
      { cwd: "devbox:/home/someone/projects/a-rather-long-folder", usage: [slice("2026-11-01", "sonnet", 1, 1)] },
      { cwd: "/home/u/projects/another-rather-long-folder", usage: [slice("2026-11-01", "sonnet", 1, 2)] },
    ];
    const c = chartRows(aggregateUsage(there, "folder"), "cost", 90, undefined, ["devbox"]);
    const labels = c.rows.map((r) => r.label.trim());
    expect(labels[1]).toBe("devbox:…/a-rather-long-folder");
    // Without the hosts it names, a label is a path like any other, cut from its start.
    const plain = chartRows(aggregateUsage(there, "folder"), "cost", 90).rows.map((r) => r.label.trim());
    expect(plain[1]).toMatch(/^…\//);
  });
  it("fills with a glyph per model without colours", () => {
    const c = chartRows(aggregateUsage(sessions, "day"), "cost", 60, SLOT_GLYPHS);
    expect(c.rows[1].pieces.map((p) => p.text[0])).toEqual(["█", "▓"]);
  });
  it("gives the largest models a slot each and the rest one shared slot", () => {
    const many: UsageSource[] = [
      { cwd: "/p", usage: Array.from({ length: 9 }, (_, i) => slice("2026-11-01", `m${i}`, 10, 9 - i)) },
    ];
    const r = aggregateUsage(many, "model");
    const legend = legendItems(r);
    expect(legend).toHaveLength(MAX_SLOTS);
    expect(legend.map((l) => l.label)).toEqual(["m0", "m1", "m2", "m3", "m4", "4 other models"]);
    expect(chartRows(r, "cost", 50).rows.map((x) => x.pieces[0].segment)).toEqual([0, 1, 2, 3, 4, 5, 5, 5, 5]);
  });
  it("sums up in the totals lines", () => {
    const [a, b] = totalsText({ ...aggregateUsage(sessions, "day"), pending: 3 });
    expect(a).toBe("Total $3.50 · 4.5k tokens · 2 of 2 sessions with usage · 3 not read yet");
    expect(b).toBe("input 4.5k · output 0 · cache read 0 · cache write 0");
  });
  it("shows a cost of five figures whole, its digits grouped", () => {
    const big: UsageSource[] = [{ cwd: "/a", usage: [slice("2026-11-01", "sonnet", 10, 12345.67)] }, ...sessions];
    const r = aggregateUsage(big, "day");
    const c = chartRows(r, "cost", 60);
    expect(c.rows.map(rowText).join("\n")).toContain("$12,348.67");
    for (const row of c.rows) expect(displayWidth(rowText(row))).toBe(60);
    expect(totalsText(r)[0]).toMatch(/^Total \$12,349\.17 /);
  });
});

describe("text from the files", () => {
  it("reaches the chart sanitized", () => {
    const evil: UsageSource[] = [
      { cwd: "/x/\x1b]0;pwned\x07/\x1b[31mred", usage: [slice("2026-11-01", "gpt\x1b[2J\u009b5m", 10, 1)] },
    ];
    for (const by of ["folder", "model"] as const) {
      const c = chartRows(aggregateUsage(evil, by), "cost", 60);
      const text = [...c.legend.map((l) => l.label), ...c.rows.map(rowText)].join("\n");
      expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      expect(text).toContain(by === "model" ? "gpt" : "red");
    }
  });
});

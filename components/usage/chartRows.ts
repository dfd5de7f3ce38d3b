import { hostPathToWidth, splitHostPath } from "../../src/text/host-path.js";
import { groupLabel, modelLabel, type UsageAmount, type UsageReport } from "../../src/usage/aggregate.js";
import { type BarPiece, stackedBar } from "../../src/usage/bars.js";
import { formatCost, formatTokens } from "../../src/text/format.js";
import {
  displayWidth,
  padToWidth,
  sanitizeLine,
  truncatePathToWidth,
  truncateToWidth,
} from "../../src/text/sanitize.js";
import type { UsageMetric } from "../../src/browser/usage/usageState.js";

/*
 * The usage chart as text, before colour: one row per group with a bar stacked by model.
 * The largest models get a slot each (a colour, or a glyph without colours); the rest
 * share the last slot, "other models".
 */

export const SLOT_GLYPHS = ["█", "▓", "▒", "░", "◆", "●"] as const;
export const MAX_SLOTS = SLOT_GLYPHS.length;

export interface LegendItem {
  slot: number;
  label: string;
}

export interface ChartRow {
  key: string;
  /** The label cell, padded to the label column. */
  label: string;
  pieces: BarPiece[];
  /** Spaces after the bar up to the value columns. */
  pad: string;
  /** Cost and tokens, right-aligned. */
  values: string;
}

export interface Chart {
  /** The value columns' heading, aligned over them. */
  heading: string;
  legend: LegendItem[];
  rows: ChartRow[];
}

/** Which slot each model takes: the largest first; past the last slot, all share it. */
export function modelSlots(report: UsageReport): Map<string, number> {
  const slots = new Map<string, number>();
  const many = report.models.length > MAX_SLOTS;
  report.models.forEach((m, i) => slots.set(m.model, many ? Math.min(i, MAX_SLOTS - 1) : i));
  return slots;
}

export function legendItems(report: UsageReport): LegendItem[] {
  const many = report.models.length > MAX_SLOTS;
  const named = report.models
    .slice(0, many ? MAX_SLOTS - 1 : MAX_SLOTS)
    .map((m, i) => ({ slot: i, label: sanitizeLine(modelLabel(m.model)) }));
  return many
    ? [...named, { slot: MAX_SLOTS - 1, label: `${report.models.length - MAX_SLOTS + 1} other models` }]
    : named;
}

const metricOf = (metric: UsageMetric) => (a: UsageAmount) => (metric === "cost" ? a.cost : a.total);

/** The chart for `width` cells: label, bar, then cost and tokens, every row exactly `width` wide. */
export function chartRows(
  report: UsageReport,
  metric: UsageMetric,
  width: number,
  glyphs?: readonly string[],
  /** Other machines' names: a folder `devbox:/path` keeps its host when it is cut. */
  hosts: readonly string[] = [],
): Chart {
  const slots = modelSlots(report);
  const value = metricOf(metric);
  const costs = report.groups.map((g) => formatCost(g.amount.cost));
  // Grouped dollars ($12,345.67) can be wider than the usual 9 columns: never cut a cost.
  const costW = Math.max(9, ...costs.map(displayWidth));
  const cells = (cost: string, tokens: string) =>
    `${padToWidth(cost, costW, "right")} ${padToWidth(tokens, 7, "right")}`;
  const values = report.groups.map((g, i) => cells(costs[i], formatTokens(g.amount.total)));
  const valueW = Math.max(0, ...values.map(displayWidth));
  const labels = report.groups.map((g) => sanitizeLine(groupLabel(report.by, g.key)));
  // The label column takes what it needs, up to a third of the width.
  const labelW = Math.max(0, Math.min(Math.max(0, ...labels.map(displayWidth)), Math.floor(width / 3)));
  const barW = Math.max(0, width - labelW - valueW - 2);
  const max = Math.max(0, ...report.groups.map((g) => value(g.amount)));
  const rows = report.groups.map((g, i) => {
    const per = new Array<number>(MAX_SLOTS).fill(0);
    for (const m of g.models) per[slots.get(m.model) ?? MAX_SLOTS - 1] += value(m.amount);
    const pieces = stackedBar(per, max, barW, glyphs);
    const drawn = pieces.reduce((n, p) => n + displayWidth(p.text), 0);
    const there = report.by === "folder" ? splitHostPath(labels[i], hosts) : undefined;
    const text =
      report.by !== "folder"
        ? truncateToWidth(labels[i], labelW)
        : there
          ? hostPathToWidth(there.host, there.path, labelW)
          : truncatePathToWidth(labels[i], labelW);
    return {
      key: g.key,
      label: padToWidth(text, labelW) + " ",
      pieces,
      pad: " ".repeat(Math.max(0, barW - drawn) + 1),
      values: padToWidth(values[i], valueW, "right"),
    };
  });
  return { heading: padToWidth(cells("cost", "tokens"), valueW, "right"), legend: legendItems(report), rows };
}

/** The totals: what every number in the chart adds up to, then its tokens by kind. */
export function totalsText(r: UsageReport): [string, string] {
  const t = r.total;
  const pending = r.pending ? ` · ${r.pending} not read yet` : "";
  return [
    `Total ${formatCost(t.cost)} · ${formatTokens(t.total)} tokens · ${r.withUsage} of ${r.sessions} sessions with usage${pending}`,
    `input ${formatTokens(t.input)} · output ${formatTokens(t.output)} · cache read ${formatTokens(t.cacheRead)} · cache write ${formatTokens(t.cacheWrite)}`,
  ];
}

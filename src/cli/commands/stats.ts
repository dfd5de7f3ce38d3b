import { dirname, resolve } from "node:path";
import { cwdScopeByFolder } from "../../store/scope.js";
import { formatCost, formatTokens, groupDigits } from "../../text/format.js";
import { displayWidth, padToWidth, sanitizeLine, truncatePathToWidth, truncateToWidth } from "../../text/sanitize.js";
import { displayRules } from "../../text/width.js";
import {
  aggregateUsage,
  groupLabel,
  modelLabel,
  type UsageAmount,
  type UsageBy,
  USAGE_BYS,
  type UsageReport,
  type UsageSource,
} from "../../usage/aggregate.js";
import { decodeUsageColumns, encodeUsageColumns } from "../../usage/usage-columns.js";
import { summaryContext } from "../../index/summary-cache.js";
import { barText } from "../../usage/bars.js";
import { parseSinceDay } from "../../usage/day.js";
import { usageError } from "../common/errors.js";
import { quietIO, type CliIO } from "../common/io.js";
import { output } from "../common/output.js";
import { scanColumns } from "../common/scan-columns.js";
import { discoverKept, keptFor, unreadableSinceDiscovery } from "../common/kept-lookup.js";
import { parse, STORE_OPTION, QUIET_OPTION } from "../common/parse.js";
import { storeFromArgs } from "../common/store-arg.js";

/**
 * The key of stats' kept answer: on a store unchanged since the same question (`--since` as
 * the day it means today), its answer as it was. The report is made of the files' summaries
 * and these alone, of the local time zone (usage is by local day: summaryContext), and, as
 * text (`form`: the width it is cut to, a pipe's undefined), of the Unicode rules its cells
 * are measured, padded and cut by (displayRules).
 */
export function statsKey(
  by: UsageBy,
  since: string | undefined,
  scope: string,
  form: "json" | number | undefined,
): string {
  const text = form === "json" ? [] : [displayRules()];
  return JSON.stringify(["stats", summaryContext(), by, since ?? null, scope, form ?? null, ...text]);
}

/** stats' options (a host's stats takes the same: src/remote/cli-remote.ts). */
export const STATS_OPTIONS = {
  ...STORE_OPTION,
  ...QUIET_OPTION,
  all: { type: "boolean", short: "a" },
  cwd: { type: "string" },
  by: { type: "string" },
  since: { type: "string" },
  json: { type: "boolean" },
} as const;

export async function statsCommand(args: string[], given: CliIO): Promise<number> {
  const { values, positionals } = parse(args, STATS_OPTIONS);
  const io = quietIO(given, values.quiet);
  const out = output(io);
  if (positionals.length) throw usageError(`stats takes no arguments (got '${positionals[0]}')`);
  const by = (values.by ?? "day") as UsageBy;
  if (!USAGE_BYS.includes(by)) throw usageError(`--by must be one of ${USAGE_BYS.join(", ")}`);
  const since = values.since === undefined ? undefined : parseSinceDay(values.since);
  if (values.since !== undefined && !since)
    throw usageError(`--since takes a day as YYYY-MM-DD, today or Nd (got '${values.since}')`);
  if (values.all && values.cwd) throw usageError("--all and --cwd can't be combined");
  const store = storeFromArgs(values["session-dir"], io);
  const cwd = resolve(io.cwd, values.cwd ?? ".");
  // Cut to the terminal, or to $COLUMNS when set: a pipe otherwise gets whole lines (bars 100 columns wide).
  const width =
    io.columns && io.columns > 0 ? io.columns : Number(io.env.COLUMNS) > 0 ? Number(io.env.COLUMNS) : undefined;
  const key = statsKey(by, since, values.all ? "" : cwd, values.json ? "json" : width);
  const found = await discoverKept(store.dir, io);
  const k = keptFor(found, key, (a) => a);
  if (k.kept) {
    if (values.json) out.jsonBytes(k.kept.out);
    else out.text(Buffer.from(k.kept.out).toString());
    return 0;
  }
  // A question not asked before: added up from the usage columns kept for this store, when
  // they are (every session's usage, whatever the question), else from the index's columns.
  const c = keptFor(found, JSON.stringify(["stats-usage", summaryContext()]), (a) => decodeUsageColumns(a.out));
  const index = k.index();
  try {
    const inScope = values.all ? undefined : cwdScopeByFolder(store.dir, cwd);
    let rows: Iterable<UsageSource>;
    let readable = true;
    if (c.kept) rows = c.kept.rows(inScope);
    else {
      // Usage by day and model, and what scopes it: those columns of the index alone.
      const { sessions, diagnostics } = await scanColumns(store.dir, io, ["path", "cwd", "usage"], {
        index,
        found: k.found,
      });
      // Made of the files whether the index helped or not, as list's is; not when a file
      // discovery could read then failed to be read (list's rule: unreadableSinceDiscovery).
      readable = !unreadableSinceDiscovery(diagnostics, k.found);
      if (readable) c.keep?.({ out: encodeUsageColumns(sessions), err: "" });
      rows = inScope ? sessions.filter((s) => inScope(dirname(s.path), s.cwd)) : sessions;
    }
    const report = aggregateUsage(rows, by, { since });
    const text = values.json
      ? out.json(reportJson(report, values.all ? null : cwd))
      : formatReport(report, values.all ? "all folders" : sanitizeLine(cwd), width ?? 100, width !== undefined);
    if (!values.json) out.text(text);
    if (readable) k.keep?.({ out: Buffer.from(text), err: "" });
    return 0;
  } finally {
    index?.close();
  }
}

/**
 * Dollars to the millionth (pi's own figures carry no more): a sum of floats printed whole
 * read `2224.9836230000014`.
 */
export const jsonDollars = (cost: number): number => Number(cost.toFixed(6));

const amountJson = (a: UsageAmount) => ({
  tokens: { input: a.input, output: a.output, cacheRead: a.cacheRead, cacheWrite: a.cacheWrite, total: a.total },
  cost: jsonDollars(a.cost),
});

/** Exact token sums and dollars to the millionth, shaped like `show --json`'s usage. */
export function reportJson(r: UsageReport, cwd: string | null): Record<string, unknown> {
  return {
    by: r.by,
    since: r.since ?? null,
    cwd,
    sessions: r.sessions,
    sessionsWithUsage: r.withUsage,
    ...amountJson(r.total),
    groups: r.groups.map((g) => ({
      key: g.key,
      sessions: g.sessions,
      ...amountJson(g.amount),
      models: g.models.map((m) => ({ model: m.model, ...amountJson(m.amount) })),
    })),
    models: r.models.map((m) => ({ model: m.model, ...amountJson(m.amount) })),
  };
}

/**
 * A table that fits `width` columns: the key, sessions, tokens, cost, and a bar of the
 * cost (of the tokens when nothing cost anything). Text from the files is sanitized.
 */
export function formatReport(r: UsageReport, scope: string, width: number, fit = true): string {
  const cut = (line: string) => (fit ? truncateToWidth(line, width) : line);
  const heading = `Usage by ${r.by} · ${scope}${r.since ? ` · since ${r.since}` : ""} · ${groupDigits(r.withUsage)} of ${groupDigits(r.sessions)} sessions with usage`;
  const lines = [cut(heading)];
  if (r.groups.length === 0) return `${lines.join("\n")}\nno usage recorded\n`;
  const byCost = r.total.cost > 0;
  const metric = (a: UsageAmount) => (byCost ? a.cost : a.total);
  const max = Math.max(...r.groups.map((g) => metric(g.amount)));
  const num = (g: { sessions: number | string; amount: UsageAmount }) => [
    typeof g.sessions === "number" ? groupDigits(g.sessions) : g.sessions,
    formatTokens(g.amount.total),
    formatCost(g.amount.cost),
  ];
  const totalCells = num({ sessions: r.withUsage, amount: r.total });
  const numW = [8, Math.max(6, displayWidth(totalCells[1])), Math.max(7, displayWidth(totalCells[2]))];
  const fixed = numW.reduce((a, b) => a + b + 2, 0);
  const keys = r.groups.map((g) => sanitizeLine(by(r, g.key)));
  // The key column takes what it needs: on a terminal up to what leaves a bar of 10 cells;
  // in a pipe all of it (a folder is never cut there), the bar keeping at least 10.
  const keysW = Math.max(...keys.map(displayWidth), 5);
  const keyW = fit ? Math.max(5, Math.min(keysW, width - fixed - 12)) : keysW;
  const barW = Math.max(fit ? 0 : 10, width - keyW - fixed - 2);
  const row = (key: string, cells: string[], bar: string) =>
    [padToWidth(key, keyW), ...cells.map((c, i) => padToWidth(c, numW[i], "right"))].join("  ") +
    (bar ? `  ${bar}` : "");
  const head = r.by.toUpperCase();
  lines.push(row(head, ["SESSIONS", "TOKENS", "COST"], ""));
  r.groups.forEach((g, i) => {
    const key = r.by === "folder" ? truncatePathToWidth(keys[i], keyW) : truncateToWidth(keys[i], keyW);
    lines.push(row(key, num(g), barW >= 1 ? barText(metric(g.amount), max, barW) : ""));
  });
  lines.push(row("TOTAL", totalCells, ""));
  const t = r.total;
  lines.push(
    cut(
      `tokens: input ${groupDigits(t.input)}, output ${groupDigits(t.output)}, cache read ${groupDigits(t.cacheRead)}, cache write ${groupDigits(t.cacheWrite)}`,
    ),
  );
  if (r.by !== "model" && r.models.length) {
    lines.push(
      cut(
        `models: ${r.models.map((m) => `${sanitizeLine(modelLabel(m.model))} ${formatCost(m.amount.cost)}`).join(", ")}`,
      ),
    );
  }
  return `${lines.map((l) => l.trimEnd()).join("\n")}\n`;
}

function by(r: UsageReport, key: string): string {
  return groupLabel(r.by, key);
}

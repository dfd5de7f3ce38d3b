import { Box, Text } from "ink";
import { useEffect, useMemo } from "react";
import { aggregateUsage } from "../../src/usage/aggregate.js";
import { plural } from "../../src/text/format.js";
import { sanitizeLine, truncateToWidth } from "../../src/text/sanitize.js";
import { PaneFrame } from "../layout/PaneFrame.js";
import type { ListRow, Scope } from "../../src/browser/list/derive.js";
import { theme } from "../theme/theme.js";
import { chartRows, totalsText } from "./chartRows.js";
import { COLORS_ON, slotGlyphs } from "./slotTones.js";
import { UsageBarRow } from "./UsageBarRow.js";
import { UsageLegend } from "./UsageLegend.js";
import type { UsageAction } from "../../src/browser/usage/usageReducer.js";
import type { UsageLayer } from "../../src/browser/usage/usageState.js";
import { usageSources } from "../../src/browser/usage/usageSources.js";
import type { HostView } from "../../src/browser/list/hosts.js";
import { UsageTabs } from "./UsageTabs.js";

interface Props {
  /** The list's rows: the usage of exactly the sessions the list shows. */
  rows: readonly ListRow[];
  layer: UsageLayer;
  scope: Scope;
  /** Other machines: whose rows are counted yet, and why not. */
  hosts?: readonly HostView[];
  /** The list's search, if any: the view covers the sessions it matches. */
  search: string;
  width: number;
  height: number;
  dispatch(a: UsageAction): void;
  /** Colours per model, else a glyph per model (NO_COLOR). */
  color?: boolean;
}

/** Lines above the chart inside the frame: the groupings, the totals, the legend. */
const HEAD = 4;

/** `U`: tokens and cost of the listed sessions as bar charts, by day, folder or model. */
export function UsageScreen({ rows, layer, scope, hosts, search, width, height, dispatch, color = COLORS_ON }: Props) {
  const inner = Math.max(0, width - 2);
  const sources = useMemo(() => usageSources(rows, hosts), [rows, hosts]);
  const report = useMemo(() => aggregateUsage(sources.sessions, layer.by), [sources, layer.by]);
  const hostNames = useMemo(() => (hosts ?? []).map((h) => sanitizeLine(h.name)), [hosts]);
  const chart = useMemo(
    () => chartRows(report, layer.metric, inner, slotGlyphs(color), hostNames),
    [report, layer.metric, inner, color, hostNames],
  );
  const totals = totalsText(report);
  const page = Math.max(1, height - 2 - HEAD);
  const maxTop = Math.max(0, chart.rows.length - page);
  useEffect(() => {
    if (maxTop !== layer.maxTop || page !== layer.page) dispatch({ type: "usage.view", maxTop, page });
  }, [maxTop, page, layer.maxTop, layer.page, dispatch]);
  const top = Math.min(layer.top, maxTop);
  const shown = chart.rows.slice(top, top + page);
  const info =
    chart.rows.length > page
      ? `${top + 1}–${top + shown.length} of ${chart.rows.length}`
      : plural(chart.rows.length, layer.by);
  const scopeText =
    (scope === "cwd" ? "this folder" : scope === "hosts" ? "every host" : "all folders") +
    (search ? ` · search ${sanitizeLine(search)}` : "") +
    sources.notCounted.map((n) => ` · ${n}`).join("");
  const empty =
    report.pending > 0 && report.sessions === 0 ? "reading sessions…" : "no usage recorded in these sessions";
  return (
    <PaneFrame title={`Usage by ${layer.by} · ${scopeText}`} info={info} focused width={width} height={height}>
      <UsageTabs by={layer.by} metric={layer.metric} width={inner} right={chart.rows.length ? chart.heading : ""} />
      <Box height={1} width={inner} flexShrink={0}>
        <Text wrap="truncate-end" bold>
          {truncateToWidth(totals[0], inner)}
        </Text>
      </Box>
      <Box height={1} width={inner} flexShrink={0}>
        <Text wrap="truncate-end" {...theme.muted}>
          {truncateToWidth(totals[1], inner)}
        </Text>
      </Box>
      <UsageLegend items={chart.legend} color={color} width={inner} />
      {shown.length === 0 ? (
        <Text {...theme.muted}>{empty}</Text>
      ) : (
        shown.map((r) => <UsageBarRow key={r.key} row={r} color={color} width={inner} />)
      )}
    </PaneFrame>
  );
}

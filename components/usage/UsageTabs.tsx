import { Box, Text } from "ink";
import { USAGE_BYS, type UsageBy } from "../../src/usage/aggregate.js";
import { theme } from "../theme/theme.js";
import type { UsageMetric } from "../../src/browser/usage/usageState.js";

interface Props {
  by: UsageBy;
  metric: UsageMetric;
  width: number;
  /** At the right end: the heading of the value columns. */
  right: string;
}

/** "▸day  folder  model   bars: cost": the grouping shown (inverse, so NO_COLOR shows it too). */
export function UsageTabs({ by, metric, width, right }: Props) {
  return (
    <Box height={1} width={width} flexShrink={0} justifyContent="space-between">
      <Text wrap="truncate-end">
        {USAGE_BYS.map((b) => (
          <Text key={b} {...(b === by ? theme.selected : theme.muted)}>
            {b === by ? `▸${b}` : ` ${b}`}{" "}
          </Text>
        ))}
        <Text {...theme.muted}> bars: {metric}</Text>
      </Text>
      <Text {...theme.muted}>{right}</Text>
    </Box>
  );
}

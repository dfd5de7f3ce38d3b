import { Box, Text } from "ink";
import { theme } from "../theme/theme.js";
import type { ChartRow } from "./chartRows.js";
import { slotTone } from "./slotTones.js";

interface Props {
  row: ChartRow;
  color: boolean;
  width: number;
}

/** One group: its label, its bar stacked by model, its cost and tokens. */
export function UsageBarRow({ row, color, width }: Props) {
  return (
    <Box height={1} width={width} flexShrink={0}>
      <Text wrap="truncate-end">
        {row.label}
        {row.pieces.map((p, i) => (
          <Text key={i} {...slotTone(p.segment, color)}>
            {p.text}
          </Text>
        ))}
        {row.pad}
        <Text {...theme.accent}>{row.values}</Text>
      </Text>
    </Box>
  );
}

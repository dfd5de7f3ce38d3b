import { Box, Text } from "ink";
import type { LegendItem } from "./chartRows.js";
import { slotMark, slotTone } from "./slotTones.js";

interface Props {
  items: LegendItem[];
  color: boolean;
  width: number;
}

/** Which colour (or glyph) is which model. */
export function UsageLegend({ items, color, width }: Props) {
  return (
    <Box height={1} width={width} flexShrink={0}>
      <Text wrap="truncate-end">
        {items.map((it) => (
          <Text key={it.slot}>
            <Text {...slotTone(it.slot, color)}>{slotMark(it.slot, color)}</Text> {it.label}
            {"  "}
          </Text>
        ))}
      </Text>
    </Box>
  );
}

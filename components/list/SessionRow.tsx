import { Box, Text } from "ink";
import { memo } from "react";
import type { ListRow } from "../state/derive.js";
import { theme } from "../theme.js";
import { formatRow, rowTone } from "./rowFormat.js";

interface Props {
  row: ListRow;
  width: number;
  selected: boolean;
  showCwd: boolean;
  now: number;
}

/** One pre-formatted line; memoised so a cursor move re-renders two rows, not the page. */
export const SessionRow = memo(function SessionRow({ row, width, selected, showCwd, now }: Props) {
  const tone = rowTone(row, selected);
  return (
    <Box flexShrink={0} width={width}>
      <Text wrap="truncate-end" {...(tone ? theme[tone] : {})}>
        {formatRow(row, { width, selected, showCwd, now })}
      </Text>
    </Box>
  );
});

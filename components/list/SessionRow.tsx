import { Box, Text } from "ink";
import { memo } from "react";
import type { ListRow } from "../state/derive.js";
import { theme } from "../theme.js";
import { formatRow, rowTone } from "./rowFormat.js";
import { formatSnippetLine } from "./snippetLine.js";

interface Props {
  row: ListRow;
  width: number;
  selected: boolean;
  showCwd: boolean;
  now: number;
  marked?: boolean;
}

/** One pre-formatted line; memoised so a cursor move re-renders two rows, not the page. */
export const SessionRow = memo(function SessionRow({ row, width, selected, showCwd, now, marked }: Props) {
  const tone = rowTone(row, selected);
  if (row.snippet) {
    // A full-text hit: the snippet of the match on a second line.
    return (
      <Box flexShrink={0} width={width} height={2} flexDirection="column">
        <Text wrap="truncate-end" {...(tone ? theme[tone] : {})}>
          {formatRow(row, { width, selected, showCwd, now })}
        </Text>
        <Text wrap="truncate-end" {...theme.muted}>
          {formatSnippetLine(row, width)}
        </Text>
      </Box>
    );
  }
  return (
    <Box flexShrink={0} width={width}>
      <Text wrap="truncate-end" {...(tone ? theme[tone] : {})}>
        {formatRow(row, { width, selected, showCwd, now, marked })}
      </Text>
    </Box>
  );
});

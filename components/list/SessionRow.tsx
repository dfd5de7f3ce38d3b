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
  open?: boolean;
}

/**
 * Props are equal when every prop is, comparing `row` field by field: rows are rebuilt
 * on every scan batch and re-sort, but a row whose session did not change needs no
 * new frame.
 */
function sameProps(a: Props, b: Props): boolean {
  const ka = Object.keys(a) as (keyof Props)[];
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (k !== "row" && a[k] !== b[k]) return false;
  if (a.row === b.row) return true;
  const ra = a.row as unknown as Record<string, unknown>;
  const rb = b.row as unknown as Record<string, unknown>;
  const fa = Object.keys(ra);
  if (fa.length !== Object.keys(rb).length) return false;
  return fa.every((f) => ra[f] === rb[f]);
}

/** One pre-formatted line; memoised so a cursor move re-renders two rows, not the page. */
export const SessionRow = memo(function SessionRow({ row, width, selected, showCwd, now, marked, open }: Props) {
  const tone = rowTone(row, selected);
  if (row.snippet) {
    // A full-text hit: the snippet of the match on a second line.
    return (
      <Box flexShrink={0} width={width} height={2} flexDirection="column">
        <Text wrap="truncate-end" {...(tone ? theme[tone] : {})}>
          {formatRow(row, { width, selected, showCwd, now, marked, open })}
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
        {formatRow(row, { width, selected, showCwd, now, marked, open })}
      </Text>
    </Box>
  );
}, sameProps);

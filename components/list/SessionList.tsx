import { Box, Text } from "ink";
import type { Query } from "../../src/search/query.js";
import { useVariableWindow } from "../layout/useVariableWindow.js";
import type { ListRow } from "../state/derive.js";
import { theme } from "../theme.js";
import { SessionRow } from "./SessionRow.js";
import { rowHeight } from "./snippetLine.js";

interface Props {
  rows: readonly ListRow[];
  cursor: number;
  width: number;
  height: number;
  showCwd: boolean;
  /** Shown when there are no rows ("scanning…", "no match"). */
  emptyText: string;
  now: number;
  /** Marked session paths (Space). */
  marks?: ReadonlySet<string>;
  /** The session open in the launching pi. */
  openInPi?: string;
  /** The active search, highlighted in the rows. */
  query?: Query;
}

/** Virtualised: only the rows in the visible window are rendered. */
export function SessionList({ rows, cursor, width, height, showCwd, emptyText, now, marks, openInPi, query }: Props) {
  // Rows with a full-text snippet take two lines.
  const { top, end } = useVariableWindow((i) => rowHeight(rows[i]), rows.length, cursor, height);
  if (rows.length === 0) {
    return (
      <Box height={height} width={width} flexShrink={0}>
        <Text {...theme.muted} wrap="truncate-end">
          {"  " + emptyText}
        </Text>
      </Box>
    );
  }
  const visible = rows.slice(top, end);
  return (
    // No overflow="hidden": rows are formatted to exactly `width` and the window holds
    // only whole rows, and clipping makes ink slice every line of every frame (≈⅓ of a
    // frame's cost on a 120×40 screen).
    <Box flexDirection="column" height={height} width={width} flexShrink={0}>
      {visible.map((row, i) => (
        <SessionRow key={row.session.path} row={row} width={width} selected={top + i === cursor} showCwd={showCwd} now={now} marked={marks?.has(row.session.path)} open={row.session.path === openInPi} query={query} />
      ))}
    </Box>
  );
}

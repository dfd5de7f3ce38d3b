import { Box, Text } from "ink";
import { PaneFrame } from "../layout/PaneFrame.js";
import type { Query } from "../../src/search/query.js";
import { useVariableWindow } from "../layout/useVariableWindow.js";
import type { ListRow } from "../../src/browser/list/derive.js";
import { theme } from "../theme/theme.js";
import { type AgeOf, formatHeader } from "./rowFormat.js";
import { SessionRow } from "./SessionRow.js";
import { rowHeight } from "./snippetLine.js";

interface Props {
  rows: readonly ListRow[];
  cursor: number;
  width: number;
  height: number;
  showCwd: boolean;
  /** The last column shows each session's file path (pi's Ctrl+P). */
  showPath?: boolean;
  /** Shown when there are no rows ("scanning…", "no match"). */
  emptyText: string;
  now: number;
  /** Marked session paths (Space). */
  marks?: ReadonlySet<string>;
  /** The session open in the launching pi. */
  openInPi?: string;
  /** The pane's title and what its border says at the right ("12/340"). */
  title?: string;
  info?: string;
  focused?: boolean;
  /** The active search, highlighted in the rows. */
  query?: Query;
  /** Behind a dialog: every row dimmed. */
  dimmed?: boolean;
  /** Which time the age column shows (what the list is sorted by). */
  ageOf?: AgeOf;
  /** Told the first shown row on each render (the mouse maps a click to a row with it). */
  windowTop?: { current: number };
}

/** Virtualised: only the rows in the visible window are rendered. `width`×`height` is the pane, border included. */
export function SessionList({
  rows,
  cursor,
  width,
  height,
  showCwd,
  showPath = false,
  emptyText,
  now,
  marks,
  openInPi,
  title = "Sessions",
  info,
  focused = true,
  query,
  dimmed = false,
  windowTop,
  ageOf,
}: Props) {
  const innerW = Math.max(0, width - 2);
  // The border takes two rows, the column headings one.
  const rowsH = Math.max(0, height - 3);
  // Rows with a full-text snippet take two lines.
  const { top, end } = useVariableWindow((i) => rowHeight(rows[i]), rows.length, cursor, rowsH);
  const visible = rows.slice(top, end);
  if (windowTop) windowTop.current = top;
  return (
    <PaneFrame title={title} info={info} focused={focused} width={width} height={height}>
      <Text {...theme.muted}>{formatHeader(innerW, showCwd, ageOf, showPath)}</Text>
      {rows.length === 0 ? (
        <Text {...theme.muted} wrap="truncate-end">
          {"  " + emptyText}
        </Text>
      ) : (
        // No overflow="hidden": rows are formatted to exactly the width and the window holds
        // only whole rows; clipping would make Ink slice every line of every frame.
        <Box flexDirection="column" height={rowsH} width={innerW} flexShrink={0}>
          {visible.map((row, i) => (
            <SessionRow
              key={row.session.path}
              row={row}
              width={innerW}
              selected={top + i === cursor}
              showCwd={showCwd}
              showPath={showPath}
              now={now}
              marked={marks?.has(row.session.path)}
              open={row.session.path === openInPi}
              query={dimmed ? undefined : query}
              dimmed={dimmed}
              ageOf={ageOf}
            />
          ))}
        </Box>
      )}
    </PaneFrame>
  );
}

import { Box, Text } from "ink";
import { useMemo } from "react";
import type { AppliedEdit } from "../../src/model/context.js";
import type { SessionIndex } from "../../src/store/session-index.js";
import { nearestVisibleId, type TreeView } from "../../src/model/tree-view.js";
import { PaneFrame } from "../layout/PaneFrame.js";
import { useVisibleWindow } from "../layout/useVisibleWindow.js";
import { theme } from "../theme/theme.js";
import { TreeRow } from "./TreeRow.js";
import { type TreeRowParts, treeRowParts } from "./treeRowFormat.js";

interface Props {
  view: TreeView;
  index: SessionIndex;
  calls: ReadonlyMap<string, string>;
  folded: ReadonlySet<string>;
  matches: ReadonlySet<string>;
  cursor: number;
  width: number;
  height: number;
  edits?: ReadonlyMap<string, AppliedEdit>;
  original?: boolean;
  /** pi's Shift+T: each label shows when it was set. */
  labelTimes?: boolean;
  /** Told the first shown row (the mouse's hit test needs it). */
  windowTop?: { current: number };
}

/** The leaf, or its nearest visible ancestor; none when no ancestor is visible. */
export function activeRow(view: TreeView, index: SessionIndex): string | undefined {
  return nearestVisibleId(view, index, index.leafId);
}

/** Virtualised: only the rows in the visible window are formatted and rendered. `width`×`height` is the pane, border included. */
export function TreePane({ width: outerW, height: outerH, ...rest }: Props) {
  const width = Math.max(0, outerW - 2);
  const height = Math.max(0, outerH - 2);
  const n = rest.view.rows.length;
  const info = n ? `${Math.min(rest.cursor, n - 1) + 1} of ${n}` : "";
  return (
    <PaneFrame title="Branch tree" info={info} focused width={outerW} height={outerH}>
      <TreeRows {...rest} width={width} height={height} />
    </PaneFrame>
  );
}

function TreeRows({
  view,
  index,
  calls,
  folded,
  matches,
  cursor,
  width,
  height,
  edits,
  original = false,
  labelTimes = false,
  windowTop,
}: Props) {
  const { top, end } = useVisibleWindow(view.rows.length, cursor, height);
  if (windowTop) windowTop.current = top;
  // A hidden leaf (a label entry, say) lends its marker to its nearest visible ancestor.
  const activeRowId = useMemo(() => activeRow(view, index), [view, index]);
  // Formatted rows survive cursor moves: a key formats only the rows that scrolled in.
  const cache = useMemo(
    () => new Map<number, TreeRowParts>(),
    [view, index, calls, folded, matches, width, activeRowId, edits, original, labelTimes],
  );
  if (view.rows.length === 0) {
    return (
      <Box height={height} width={width} flexShrink={0}>
        <Text {...theme.muted} wrap="truncate-end">
          {"  no entry passes this filter · o changes it"}
        </Text>
      </Box>
    );
  }
  const rows = [];
  for (let i = top; i < end; i++) {
    let base = cache.get(i);
    if (!base) {
      base = treeRowParts(view, index, calls, folded, matches, i, -1, width, activeRowId, edits, original, labelTimes);
      cache.set(i, base);
    }
    const parts = i === cursor ? { ...base, selected: true } : base;
    rows.push(<TreeRow key={parts.id} parts={parts} width={width} />);
  }
  return (
    <Box flexDirection="column" height={height} width={width} overflow="hidden" flexShrink={0}>
      {rows}
    </Box>
  );
}

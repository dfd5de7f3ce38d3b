import { basename, dirname } from "node:path";
import { Box, Text } from "ink";
import { useEffect } from "react";
import type { TrashAction, TrashLayer } from "../../src/browser/trash/trashTypes.js";
import { plural } from "../../src/text/format.js";
import { hostPathToWidth } from "../../src/text/host-path.js";
import { sanitizeLine } from "../../src/text/sanitize.js";
import { PaneFrame } from "../layout/PaneFrame.js";
import { useVisibleWindow } from "../layout/useVisibleWindow.js";
import { theme } from "../theme/theme.js";
import { TrashRow } from "./TrashRow.js";

interface Props {
  layer: TrashLayer;
  width: number;
  height: number;
  now: number;
  /** Behind a dialog (the delete-for-good questions). */
  dimmed?: boolean;
  /** Told how many rows the view shows, so its keys page by them. */
  dispatch?: (a: TrashAction) => void;
}

/** Lines under the rows inside the frame: the selected session's file, where it was and where it is now. */
const FOOT = 3;

/** `X`: this store's sessions in the trash, newest first, with where each came from. */
export function TrashScreen({ layer, width, height, now, dimmed = false, dispatch }: Props) {
  const inner = Math.max(0, width - 2);
  const items = layer.items ?? [];
  const rowsH = Math.max(1, height - 2 - FOOT);
  useEffect(() => {
    if (rowsH !== layer.page) dispatch?.({ type: "trash.view", page: rowsH });
  }, [rowsH, layer.page, dispatch]);
  const win = useVisibleWindow(items.length, layer.cursor, rowsH);
  const sel = items[layer.cursor];
  const info =
    layer.items === null
      ? ""
      : items.length > rowsH
        ? `${layer.cursor + 1} of ${items.length}`
        : plural(items.length, "session");
  const empty = layer.items === null ? "reading the trash log…" : "No session of this store is in the trash.";
  return (
    <PaneFrame
      title={
        items.some((r) => r.host)
          ? "Trash · deleted from this store and each host's, newest first"
          : "Trash · deleted from this store, newest first"
      }
      info={info}
      focused={!dimmed}
      width={width}
      height={height}
    >
      <Box flexDirection="column" height={rowsH} flexShrink={0}>
        {items.length === 0 ? (
          <Text {...theme.muted}>{empty}</Text>
        ) : (
          items
            .slice(win.top, win.top + rowsH)
            .map((r, i) => (
              <TrashRow
                key={`${r.host ?? ""}:${r.trashedFile}`}
                record={r}
                width={inner}
                selected={!dimmed && win.top + i === layer.cursor}
                now={now}
              />
            ))
        )}
      </Box>
      {sel &&
        // The file keeps its name in the trash: where it was and where it is now are folders.
        (
          [
            ["file", undefined, basename(sel.hostPath ?? sel.original)],
            ["from", sel.host, dirname(sel.hostPath ?? sel.original) + "/"],
            ["now", sel.host, dirname(sel.trashedFile) + "/"],
          ] as const
        ).map(([label, host, path]) => (
          <Text key={label} wrap="truncate-end" {...theme.muted}>
            {label.padEnd(6) + hostPathToWidth(host && sanitizeLine(host), sanitizeLine(path), Math.max(0, inner - 6))}
          </Text>
        ))}
    </PaneFrame>
  );
}

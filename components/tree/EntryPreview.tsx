import { useEffect, useMemo } from "react";
import type { AppliedEdit } from "../../src/model/context.js";
import type { EntryNode } from "../../src/model/types.js";
import { LinesPane } from "../preview/LinesPane.js";
import { entryPreviewLines } from "./entryPreviewLines.js";
import { type EntryCache, type EntryReader, useEntryPreview } from "./useEntryPreview.js";

interface Props {
  path: string;
  node: EntryNode | undefined;
  label: string | undefined;
  /** The context edit in effect on this entry, if any; `original`: show it as written. */
  edit?: AppliedEdit;
  original?: boolean;
  calls: ReadonlyMap<string, string>;
  cache: EntryCache;
  read?: EntryReader;
  top: number;
  position: "right" | "below";
  width: number;
  height: number;
  inner: { width: number; height: number };
  /** Tells the reducer how far the preview can scroll. */
  onMaxTop(max: number): void;
}

/** The selected entry in full, scrollable; loaded lazily, drawn from what is there. */
export function EntryPreview({
  path,
  node,
  label,
  edit,
  original = false,
  calls,
  cache,
  read,
  top,
  position,
  width,
  height,
  inner,
  onMaxTop,
}: Props) {
  const state = useEntryPreview(path, node, cache, read);
  const lines = useMemo(
    () =>
      node ? entryPreviewLines(node, state, label, calls, inner.width, edit ? { ...edit, original } : undefined) : [],
    [node, state, label, calls, inner.width, edit, original],
  );
  const maxTop = Math.max(0, lines.length - inner.height);
  useEffect(() => onMaxTop(maxTop), [maxTop, onMaxTop]);
  const start = Math.min(top, maxTop);
  const shown = lines.slice(start, start + inner.height);
  if (start + inner.height < lines.length && shown.length > 0) {
    shown[shown.length - 1] = {
      text: `↓ ${lines.length - start - inner.height + 1} more lines (J, Shift+PgDn a page, > the end)`,
      tone: "muted",
    };
  }
  return (
    <LinesPane
      lines={node ? shown : undefined}
      empty="no entry selected"
      firstKey={start}
      title="Entry"
      position={position}
      width={width}
      height={height}
      clip
    />
  );
}

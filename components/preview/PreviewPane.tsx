import { useEffect, useMemo } from "react";
import type { ListedSession } from "../../src/browser/list/sessions.js";
import { LinesPane } from "./LinesPane.js";
import type { Query } from "../../src/search/query.js";
import { highlightConversation, previewView, type ScrollBounds } from "./previewLines.js";
import type { PreviewState } from "./types.js";

interface Props {
  session: ListedSession | undefined;
  state: PreviewState;
  position: "right" | "below";
  width: number;
  height: number;
  inner: { width: number; height: number };
  /** Lines scrolled from the default place (negative: up). */
  offset?: number;
  /** The active search: what it matched in the conversation is highlighted. */
  query?: Query;
  /** Told how far this session's preview can scroll, whenever that changes. */
  onBounds?(path: string, bounds: ScrollBounds): void;
  /** Behind a dialog: every line dimmed. */
  dimmed?: boolean;
}

/** Facts and the tail of the selected session; drawn from what usePreview has, never waited for. */
export function PreviewPane({
  session,
  state,
  position,
  width,
  height,
  inner,
  offset = 0,
  query,
  onBounds,
  dimmed = false,
}: Props) {
  const view = useMemo(
    () => (session ? previewView(session, state, inner.width, inner.height, offset) : undefined),
    [session, state, inner.width, inner.height, offset],
  );
  const lines = useMemo(
    () => (view && query ? highlightConversation(view.lines, query) : (view?.lines ?? [])),
    [view, query],
  );
  const path = session?.path;
  const { min, max } = view?.bounds ?? { min: 0, max: 0 };
  // Only while scrolled: the reducer clamps the next J/K with these, and reporting them for
  // every newly selected session would cost a second render per cursor move.
  useEffect(() => {
    if (path !== undefined && offset !== 0) onBounds?.(path, { min, max });
  }, [path, min, max, offset, onBounds]);
  // Not clipped: previewLines returns at most inner.height lines, each cut to the width, and
  // clipping would make ink slice every line of every frame.
  const shown = useMemo(
    () => (dimmed ? lines.map((l) => ({ text: l.text, tone: "muted" as const })) : lines),
    [lines, dimmed],
  );
  return (
    <LinesPane
      lines={session ? shown : undefined}
      empty="no session selected"
      position={position}
      width={width}
      height={height}
    />
  );
}

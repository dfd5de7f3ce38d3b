import { useMemo } from "react";
import type { ListedSession } from "../state/sessions.js";
import { LinesPane } from "./LinesPane.js";
import { previewLines } from "./previewLines.js";
import type { PreviewState } from "./types.js";

interface Props {
  session: ListedSession | undefined;
  state: PreviewState;
  position: "right" | "below";
  width: number;
  height: number;
  inner: { width: number; height: number };
}

/** Facts and the tail of the selected session; drawn from what usePreview has, never waited for. */
export function PreviewPane({ session, state, position, width, height, inner }: Props) {
  const lines = useMemo(() => (session ? previewLines(session, state, inner.width, inner.height) : []), [session, state, inner.width, inner.height]);
  // Not clipped: previewLines returns at most inner.height lines, each cut to the width, and
  // clipping would make ink slice every line of every frame.
  return <LinesPane lines={session ? lines : undefined} empty="no session selected" position={position} width={width} height={height} />;
}

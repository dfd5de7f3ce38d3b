import { Box, Text } from "ink";
import { useMemo } from "react";
import type { ListedSession } from "../state/sessions.js";
import { borderColor, theme } from "../theme.js";
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
  const border =
    position === "right"
      ? { borderStyle: "single" as const, borderTop: false, borderBottom: false, borderRight: false, paddingLeft: 1 }
      : { borderStyle: "single" as const, borderLeft: false, borderBottom: false, borderRight: false };
  // No overflow="hidden": previewLines returns at most inner.height lines, each cut to
  // the width, and clipping would make ink slice every line of every frame.
  return (
    <Box flexDirection="column" width={width} height={height} flexShrink={0} borderColor={borderColor} {...border}>
      {session ? (
        lines.map((l, i) => (
          <Box key={i} flexShrink={0}>
            <Text wrap="truncate-end" {...(l.tone ? theme[l.tone] : {})}>
              {l.text || " "}
            </Text>
          </Box>
        ))
      ) : (
        <Text {...theme.muted}>no session selected</Text>
      )}
    </Box>
  );
}

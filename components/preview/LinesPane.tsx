import { Box, Text } from "ink";
import type { Range } from "../../src/search/match-ranges.js";
import { Highlighted } from "../list/Highlighted.js";
import { borderColor, theme, type ToneName } from "../theme.js";

export interface ToneLine {
  text: string;
  tone?: ToneName;
  /** What the active search matched in `text`, drawn in the match style. */
  ranges?: readonly Range[];
}

interface Props {
  /** Undefined when nothing is selected: `empty` is shown instead. */
  lines: readonly ToneLine[] | undefined;
  empty: string;
  /** React key of the first line (a scrolled pane keeps its keys stable). */
  firstKey?: number;
  /** Beside the list (a rule on the left) or below it (a rule on top). */
  position: "right" | "below";
  width: number;
  height: number;
  /** Clip to the box; without it, callers hand over lines already fitted to it. */
  clip?: boolean;
}

/** The side pane the session preview and the entry preview share: one truncated, toned line per row. */
export function LinesPane({ lines, empty, firstKey = 0, position, width, height, clip = false }: Props) {
  const border =
    position === "right"
      ? { borderStyle: "single" as const, borderTop: false, borderBottom: false, borderRight: false, paddingLeft: 1 }
      : { borderStyle: "single" as const, borderLeft: false, borderBottom: false, borderRight: false };
  return (
    <Box flexDirection="column" width={width} height={height} flexShrink={0} borderColor={borderColor} {...(clip ? { overflow: "hidden" as const } : {})} {...border}>
      {lines ? (
        lines.map((l, i) => (
          <Box key={firstKey + i} flexShrink={0}>
            <Text wrap="truncate-end" {...(l.tone ? theme[l.tone] : {})}>
              {l.ranges?.length ? <Highlighted text={l.text} ranges={l.ranges} /> : l.text || " "}
            </Text>
          </Box>
        ))
      ) : (
        <Text {...theme.muted}>{empty}</Text>
      )}
    </Box>
  );
}

import { Box, Text } from "ink";
import { PaneFrame } from "../layout/PaneFrame.js";
import { theme, type ToneName } from "../theme/theme.js";
import type { Range } from "../../src/search/match-ranges.js";
import { Highlighted } from "../list/Highlighted.js";

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
  /** The pane's title, in its top border. */
  title?: string;
  /** Beside the list or below it. */
  position: "right" | "below";
  width: number;
  height: number;
  /** Clip to the box; without it, callers hand over lines already fitted to it. */
  clip?: boolean;
}

/** The side pane the session preview and the entry preview share: one truncated, toned line per row, in a titled frame. */
export function LinesPane({ lines, empty, firstKey = 0, title = "Preview", width, height, clip = false }: Props) {
  return (
    <PaneFrame title={title} width={width} height={height}>
      <Box
        flexDirection="column"
        width={Math.max(0, width - 2)}
        height={Math.max(0, height - 2)}
        paddingLeft={1}
        flexShrink={0}
        {...(clip ? { overflow: "hidden" as const } : {})}
      >
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
    </PaneFrame>
  );
}

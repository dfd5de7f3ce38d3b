import { Box, Text } from "ink";
import { useMemo } from "react";
import type { Keymap } from "../../src/browser/keys/keymap.js";
import { borderColor, theme } from "../theme/theme.js";
import { sanitizeLine } from "../../src/text/sanitize.js";
import { clampHelpTop, helpLines, type HelpSection } from "../../src/browser/keys/helpLines.js";

interface Props {
  keymap: Keymap;
  width: number;
  height: number;
  top: number;
  /** The section of the screen the help was opened from: shown first. */
  first?: HelpSection;
  /** Only the keys whose words hold this (`/` in the help); `typing` while it is typed. */
  filter?: string;
  typing?: boolean;
}

/** Replaces the panes (ink has no layers): a bordered, scrollable list of every key. */
export function HelpOverlay({ keymap, width, height, top, first, filter, typing }: Props) {
  const innerW = Math.max(1, width - 4);
  const innerH = Math.max(1, height - 3); // border top/bottom + title
  const lines = useMemo(() => helpLines(keymap, innerW, first, filter), [keymap, innerW, first, filter]);
  const start = clampHelpTop(top, lines.length, innerH);
  const more = start + innerH < lines.length;
  return (
    <Box
      flexDirection="column"
      width={width}
      height={height}
      borderStyle="round"
      borderColor={borderColor}
      paddingX={1}
      flexShrink={0}
      overflow="hidden"
    >
      <Text {...theme.title} wrap="truncate-end">
        {filter !== undefined
          ? `Keys  /${sanitizeLine(filter)}${typing ? "▏" : ""}${more ? "  (↓ for more)" : ""}  · Esc clears the filter`
          : `Keys${more ? "  (↓ for more)" : ""}  · / filters · Esc closes`}
      </Text>
      {lines.slice(start, start + innerH).map((l, i) => (
        <Box key={start + i} flexShrink={0}>
          <Text wrap="truncate-end" {...(l.heading ? theme.accent : {})}>
            {l.text || " "}
          </Text>
        </Box>
      ))}
    </Box>
  );
}

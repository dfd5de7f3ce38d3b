import { Box, Text } from "ink";
import { clampHelpTop } from "../../src/browser/keys/helpLines.js";
import { borderColor, theme } from "../theme/theme.js";

/** A line of a scrolled page and how it is set apart. */
export interface PageLine {
  text: string;
  tone?: "accent" | "muted";
}

interface Props {
  width: number;
  height: number;
  /** The first line shown (clamped to what fits). */
  top: number;
  lines: readonly PageLine[];
  /** The title row; `more`: lines follow below the last one shown. */
  title: (more: boolean) => string;
}

/** The text width inside a page `width` wide (border and padding). */
export const pageInnerWidth = (width: number) => Math.max(1, width - 4);

/**
 * A page that replaces the panes (ink has no layers): a bordered, scrollable list of lines
 * under a title row. The help and the skipped files are drawn by it.
 */
export function ScrolledPage({ width, height, top, lines, title }: Props) {
  const innerH = Math.max(1, height - 3); // border top/bottom + title
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
        {title(more)}
      </Text>
      {lines.slice(start, start + innerH).map((l, i) => (
        <Box key={start + i} flexShrink={0}>
          <Text wrap="truncate-end" {...(l.tone ? theme[l.tone] : {})}>
            {l.text || " "}
          </Text>
        </Box>
      ))}
    </Box>
  );
}

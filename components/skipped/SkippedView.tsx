import { Box, Text } from "ink";
import { useMemo } from "react";
import type { Diagnostic } from "../../src/model/types.js";
import { clampHelpTop } from "../../src/browser/keys/helpLines.js";
import { sanitizeLine, truncateStartToWidth, wrapToWidth } from "../../src/text/sanitize.js";
import { borderColor, theme } from "../theme/theme.js";

interface Props {
  skipped: readonly Diagnostic[];
  width: number;
  height: number;
  /** The first line shown (scrolled as the help is). */
  top: number;
  /** The key that closes it, as the key map has it. */
  closeKey: string;
}

/** One file: its path (cut from the left, so the name stays) and, indented, why it was skipped. */
export function skippedLines(skipped: readonly Diagnostic[], width: number): string[] {
  const lines: string[] = [];
  for (const d of skipped) {
    lines.push(truncateStartToWidth(sanitizeLine(d.path), width));
    for (const l of wrapToWidth(`${d.kind}: ${sanitizeLine(d.reason)}`, Math.max(1, width - 2))) lines.push(`  ${l}`);
  }
  return lines;
}

/** Replaces the panes, as the help does: every file the scan skipped, and why. */
export function SkippedView({ skipped, width, height, top, closeKey }: Props) {
  const innerW = Math.max(1, width - 4);
  const innerH = Math.max(1, height - 3); // border top/bottom + title
  const lines = useMemo(() => skippedLines(skipped, innerW), [skipped, innerW]);
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
        {`Skipped files (${skipped.length}): not listed, and why${more ? "  (↓ for more)" : ""}  · ${closeKey} closes`}
      </Text>
      {lines.slice(start, start + innerH).map((l, i) => (
        <Box key={start + i} flexShrink={0}>
          <Text wrap="truncate-end" {...(l.startsWith("  ") ? theme.muted : {})}>
            {l || " "}
          </Text>
        </Box>
      ))}
    </Box>
  );
}

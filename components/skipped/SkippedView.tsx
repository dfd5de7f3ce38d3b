import { useMemo } from "react";
import type { Diagnostic } from "../../src/model/types.js";
import { sanitizeLine, truncateStartToWidth, wrapToWidth } from "../../src/text/sanitize.js";
import { type PageLine, pageInnerWidth, ScrolledPage } from "../layout/ScrolledPage.js";

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
  const innerW = pageInnerWidth(width);
  const lines = useMemo(
    () =>
      skippedLines(skipped, innerW).map((l): PageLine => ({
        text: l,
        ...(l.startsWith("  ") ? { tone: "muted" } : {}),
      })),
    [skipped, innerW],
  );
  return (
    <ScrolledPage
      width={width}
      height={height}
      top={top}
      lines={lines}
      title={(more) =>
        `Skipped files (${skipped.length}): not listed, and why${more ? "  (↓ for more)" : ""}  · ${closeKey} closes`
      }
    />
  );
}

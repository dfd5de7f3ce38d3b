import { useMemo } from "react";
import type { Keymap } from "../../src/browser/keys/keymap.js";
import { type PageLine, pageInnerWidth, ScrolledPage } from "../layout/ScrolledPage.js";
import { sanitizeLine } from "../../src/text/sanitize.js";
import { helpLines, type HelpSection } from "../../src/browser/keys/helpLines.js";

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
  const innerW = pageInnerWidth(width);
  const lines = useMemo(
    () =>
      helpLines(keymap, innerW, first, filter).map((l): PageLine => ({
        text: l.text,
        ...(l.heading ? { tone: "accent" } : {}),
      })),
    [keymap, innerW, first, filter],
  );
  return (
    <ScrolledPage
      width={width}
      height={height}
      top={top}
      lines={lines}
      title={(more) =>
        filter !== undefined
          ? `Keys  /${sanitizeLine(filter)}${typing ? "▏" : ""}${more ? "  (↓ for more)" : ""}  · Esc clears the filter`
          : `Keys${more ? "  (↓ for more)" : ""}  · / filters · Esc closes`
      }
    />
  );
}

import { Box, Text } from "ink";
import { memo } from "react";
import { padToWidth, truncateToWidth } from "../../src/text/sanitize.js";
import { theme, type ToneName } from "../theme/theme.js";
import { CURSOR, NO_CURSOR, type TreeRowParts } from "./treeRowFormat.js";

const KIND_TONE: Record<string, ToneName | undefined> = {
  user: "accent",
  assistant: undefined,
  tool: "muted",
  meta: "muted",
};

interface Props {
  parts: TreeRowParts;
  width: number;
}

/** One tree row; memoised on its (string) pieces so a cursor move re-renders two rows. */
export const TreeRow = memo(
  function TreeRow({ parts: p, width }: Props) {
    if (p.selected) {
      // The selection bar spans the whole row, gutter, marks and label included, as the list's.
      const line = CURSOR + p.prefix + p.active + p.match + p.label + p.edit + p.text + p.leaf;
      return (
        <Box flexShrink={0} width={width} height={1}>
          <Text wrap="truncate-end" {...theme.selected}>
            {padToWidth(truncateToWidth(line, width), width)}
          </Text>
        </Box>
      );
    }
    const tone = KIND_TONE[p.kind];
    return (
      <Box flexShrink={0} width={width} height={1}>
        <Text wrap="truncate-end">
          <Text>{NO_CURSOR}</Text>
          <Text {...theme.muted}>{p.prefix}</Text>
          <Text {...theme.accent}>{p.active}</Text>
          <Text {...theme.warning}>{p.match}</Text>
          <Text {...theme.named}>{p.label}</Text>
          <Text {...theme.warning}>{p.edit}</Text>
          <Text {...(tone ? theme[tone] : {})}>{p.text}</Text>
          <Text {...theme.accent}>{p.leaf}</Text>
        </Text>
      </Box>
    );
  },
  (a, b) => a.width === b.width && sameParts(a.parts, b.parts),
);

function sameParts(a: TreeRowParts, b: TreeRowParts): boolean {
  return (
    a.id === b.id &&
    a.selected === b.selected &&
    a.prefix === b.prefix &&
    a.active === b.active &&
    a.match === b.match &&
    a.label === b.label &&
    a.edit === b.edit &&
    a.text === b.text &&
    a.kind === b.kind &&
    a.leaf === b.leaf
  );
}

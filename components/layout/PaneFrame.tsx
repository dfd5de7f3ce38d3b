import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { theme } from "../theme/theme.js";
import { topBorder } from "./topBorder.js";

export { topBorder };

interface Props {
  title: string;
  /** Extra text at the right of the top border (a count, a position). */
  info?: string;
  /** The pane keys go to: its border and title take the focus colour. */
  focused?: boolean;
  width: number;
  height: number;
  children: ReactNode;
}

/**
 * A pane with a rounded border whose top line carries its title: the frame around the
 * list, the previews and the tree. Children get the inner box (width-2 × height-2).
 */
export function PaneFrame({ title, info = "", focused = false, width, height, children }: Props) {
  const tone = focused ? theme.focus : theme.border;
  const b = topBorder(title, info, width);
  if (width < 2 || height < 2) return null;
  return (
    <Box flexDirection="column" width={width} height={height} flexShrink={0}>
      <Text {...tone}>
        {b.left}
        <Text {...(focused ? theme.title : theme.muted)}>{b.title}</Text>
        {b.fill}
        <Text {...theme.muted}>{b.info}</Text>
        {b.right}
      </Text>
      <Box
        borderStyle="round"
        borderTop={false}
        borderColor={tone.color}
        borderDimColor={!focused && tone.dimColor}
        width={width}
        height={height - 1}
        flexDirection="column"
        flexShrink={0}
      >
        {children}
      </Box>
    </Box>
  );
}

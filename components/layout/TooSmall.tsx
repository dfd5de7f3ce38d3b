import { Box, Text } from "ink";
import { MIN_COLUMNS, MIN_ROWS } from "./layout.js";
import { theme } from "../theme/theme.js";

/** Shown instead of the UI below 60×15, so nothing is drawn garbled. */
export function TooSmall({ columns, rows }: { columns: number; rows: number }) {
  return (
    <Box flexDirection="column" height={Math.max(1, rows - 1)} width={columns}>
      <Text {...theme.warning} wrap="truncate-end">
        terminal too small
      </Text>
      <Text wrap="truncate-end">{`${columns}×${rows}, need ${MIN_COLUMNS}×${MIN_ROWS}`}</Text>
      <Text {...theme.muted} wrap="truncate-end">
        enlarge the window, or q to quit
      </Text>
    </Box>
  );
}

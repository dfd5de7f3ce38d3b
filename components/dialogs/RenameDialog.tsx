import { Box, Text } from "ink";
import { truncateToWidth } from "../../src/text/sanitize.js";
import type { TextInput } from "../state/textInput.js";
import { borderColor, theme } from "../theme.js";

interface Props {
  title: string;
  input: TextInput;
  width: number;
  height: number;
}

/** The name being typed, with a block cursor; long names keep the cursor in view. */
export function RenameDialog({ title, input, width, height }: Props) {
  const room = Math.max(8, width - 12);
  const chars = Array.from(input.value);
  const before = chars.slice(0, input.cursor);
  const at = chars[input.cursor] ?? " ";
  const shownBefore = before.length + 1 > room ? "…" + before.slice(-(room - 2)).join("") : before.join("");
  const after = truncateToWidth(chars.slice(input.cursor + 1).join(""), Math.max(0, room - Array.from(shownBefore).length - 1));
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={borderColor} paddingX={1} flexShrink={0} overflow="hidden">
      <Text {...theme.title} wrap="truncate-end">
        Rename session
      </Text>
      <Text wrap="truncate-end">{"  " + title}</Text>
      <Text> </Text>
      <Text wrap="truncate-end">
        <Text {...theme.key}>Name: </Text>
        <Text>{shownBefore}</Text>
        <Text inverse>{at}</Text>
        <Text>{after}</Text>
      </Text>
      <Text> </Text>
      <Text wrap="truncate-end" {...theme.muted}>
        Enter save · Esc cancel · an empty name clears it
      </Text>
    </Box>
  );
}

import { Box, Text } from "ink";
import { sanitizeLine, truncateToWidth } from "../../src/text/sanitize.js";
import type { TextInput } from "../state/textInput.js";
import { borderColor, theme } from "../theme.js";
import type { PendingWrite } from "./treeState.js";

interface LabelProps {
  entryText: string;
  input: TextInput;
  width: number;
  height: number;
}

/** The label being typed, with a block cursor. */
export function LabelDialog({ entryText, input, width, height }: LabelProps) {
  const room = Math.max(8, width - 12);
  const chars = Array.from(input.value);
  const before = chars.slice(0, input.cursor);
  const at = chars[input.cursor] ?? " ";
  const shownBefore = before.length + 1 > room ? "…" + before.slice(-(room - 2)).join("") : before.join("");
  const after = truncateToWidth(chars.slice(input.cursor + 1).join(""), Math.max(0, room - Array.from(shownBefore).length - 1));
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={borderColor} paddingX={1} flexShrink={0} overflow="hidden">
      <Text {...theme.title} wrap="truncate-end">
        Label the entry
      </Text>
      <Text wrap="truncate-end">{"  " + truncateToWidth(sanitizeLine(entryText), Math.max(8, width - 6))}</Text>
      <Text> </Text>
      <Text wrap="truncate-end">
        <Text {...theme.key}>Label: </Text>
        <Text>{shownBefore}</Text>
        <Text inverse>{at}</Text>
        <Text>{after}</Text>
      </Text>
      <Text> </Text>
      <Text wrap="truncate-end" {...theme.muted}>
        Enter save · Esc cancel · an empty label clears it
      </Text>
    </Box>
  );
}

interface ConfirmProps {
  write: PendingWrite;
  fileName: string;
  width: number;
  height: number;
}

/** The file changed seconds ago: pi may have it open. Default no. */
export function ConfirmWriteDialog({ write, fileName, width, height }: ConfirmProps) {
  const what = write.op === "label" ? (write.label.trim() ? "add a label" : "clear a label") : "move the session's position to this entry";
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={borderColor} paddingX={1} flexShrink={0} overflow="hidden">
      <Text {...theme.warning} wrap="truncate-end">
        This session changed in the last 10 seconds.
      </Text>
      <Text wrap="truncate-end">{"  " + truncateToWidth(sanitizeLine(fileName), Math.max(8, width - 6))}</Text>
      <Text> </Text>
      <Text wrap="truncate-end">{`About to ${what}.`}</Text>
      <Text wrap="truncate-end">pi may have this session open — write anyway? y/N</Text>
      <Text> </Text>
      <Text wrap="truncate-end">
        <Text {...theme.key}>y</Text> write anyway · <Text {...theme.key}>n/Esc/Enter</Text> cancel
      </Text>
    </Box>
  );
}

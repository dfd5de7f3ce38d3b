import { Box, Text } from "ink";
import { sanitizeLine, truncateToWidth } from "../../src/text/sanitize.js";
import type { TextInput } from "../state/textInput.js";
import { borderColor, theme } from "../theme.js";
import { TextFieldDialog } from "../dialogs/TextFieldDialog.js";
import type { PendingWrite } from "./treeState.js";

interface LabelProps {
  entryText: string;
  input: TextInput;
  width: number;
  height: number;
}

/** The label being typed; an empty label clears it. */
export function LabelDialog({ entryText, input, width, height }: LabelProps) {
  const subject = truncateToWidth(sanitizeLine(entryText), Math.max(8, width - 6));
  return <TextFieldDialog heading="Label the entry" subject={subject} field="Label" input={input} hint="Enter save · Esc cancel · an empty label clears it" width={width} height={height} />;
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

import { Box, Text } from "ink";
import { sanitizeLine, truncateToWidth } from "../../src/text/sanitize.js";
import type { TextInput } from "../state/textInput.js";
import { borderColor, theme } from "../theme.js";

interface Props {
  heading: string;
  /** What is being named or labelled (already sanitized). */
  subject: string;
  field: string;
  input: TextInput;
  hint: string;
  width: number;
  height: number;
}

/** The visible part of a one-line field: text before the cursor (kept in view), the cursor cell, and after. */
export function fieldView(input: TextInput, room: number): { before: string; at: string; after: string } {
  const chars = Array.from(input.value);
  const before = chars.slice(0, input.cursor);
  const shown = before.length + 1 > room ? "…" + before.slice(-(room - 2)).join("") : before.join("");
  const after = truncateToWidth(chars.slice(input.cursor + 1).join(""), Math.max(0, room - Array.from(shown).length - 1));
  // The field may hold text from a file (a label, a name): shown through the sanitizer too.
  return { before: sanitizeLine(shown), at: sanitizeLine(chars[input.cursor] ?? " ") || " ", after: sanitizeLine(after) };
}

/** A bordered dialog with one text field and a block cursor (rename, label). */
export function TextFieldDialog({ heading, subject, field, input, hint, width, height }: Props) {
  const v = fieldView(input, Math.max(8, width - 12));
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={borderColor} paddingX={1} flexShrink={0} overflow="hidden">
      <Text {...theme.title} wrap="truncate-end">
        {heading}
      </Text>
      <Text wrap="truncate-end">{"  " + sanitizeLine(subject)}</Text>
      <Text> </Text>
      <Text wrap="truncate-end">
        <Text {...theme.key}>{field}: </Text>
        <Text>{v.before}</Text>
        <Text inverse>{v.at}</Text>
        <Text>{v.after}</Text>
      </Text>
      <Text> </Text>
      <Text wrap="truncate-end" {...theme.muted}>
        {hint}
      </Text>
    </Box>
  );
}

import { Text } from "ink";
import { displayWidth, truncateToWidth } from "../../src/text/sanitize.js";
import type { TextInput } from "../../src/browser/core/textInput.js";
import { theme } from "../theme/theme.js";

/** The reader's `/` field, in place of the key hints while it is open. */
export function ReaderSearchLine({ input, width }: { input: TextInput; width: number }) {
  const chars = Array.from(input.value);
  const room = Math.max(4, width - 30);
  const before = chars.slice(0, input.cursor).join("");
  const shown = displayWidth(before) > room ? "…" + before.slice(-room) : before;
  return (
    <Text wrap="truncate-end">
      <Text {...theme.key}>search the transcript: </Text>
      <Text>{truncateToWidth(shown, room + 1)}</Text>
      <Text inverse>{chars[input.cursor] ?? " "}</Text>
      <Text>{chars.slice(input.cursor + 1).join("")}</Text>
      <Text {...theme.muted}>{"   Enter search · Esc cancel"}</Text>
    </Text>
  );
}

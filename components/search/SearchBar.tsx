import { Box, Text } from "ink";
import { truncateToWidth } from "../../src/text/sanitize.js";
import type { TextInput } from "../../src/browser/core/textInput.js";
import { theme } from "../theme/theme.js";

interface Props {
  input: TextInput;
  active: boolean;
  width: number;
  matches: number;
  error?: string;
  /** Background work on the query, e.g. "full text 120/2000…". */
  note?: string;
}

/** "/query" with a block cursor while typing; the kept query, dimmed, otherwise. */
export function SearchBar({ input, active, width, matches, error, note }: Props) {
  const chars = Array.from(input.value);
  const before = chars.slice(0, input.cursor).join("");
  const at = chars[input.cursor] ?? " ";
  const after = chars.slice(input.cursor + 1).join("");
  const status = error ? ` ${error}` : ` ${matches} match${matches === 1 ? "" : "es"}${note ? ` · ${note}` : ""}`;
  const room = Math.max(4, width - status.length - 2);
  // Long queries: keep the cursor in view by showing the end.
  const shown =
    Array.from(before).length + 1 > room
      ? "…" +
        Array.from(before)
          .slice(-(room - 2))
          .join("")
      : before;
  return (
    <Box height={1} width={width} flexShrink={0}>
      <Text wrap="truncate-end">
        <Text {...theme.key}>/</Text>
        {active ? (
          <>
            <Text>{shown}</Text>
            <Text inverse>{at}</Text>
            <Text>{truncateToWidth(after, Math.max(0, room - Array.from(shown).length - 1))}</Text>
          </>
        ) : (
          <Text {...theme.muted}>{truncateToWidth(input.value, room)}</Text>
        )}
        <Text {...(error ? theme.error : theme.muted)}>{status}</Text>
      </Text>
    </Box>
  );
}

import { Box, Text } from "ink";
import { sanitizeLine } from "../../src/text/sanitize.js";
import type { StatusMessage } from "../state/lifecycle.js";
import { theme } from "../theme.js";

/** The result of the last action ("Moved 3 sessions to the trash — u to undo") or its error; the footer's place until the next key. */
export function StatusLine({ status, width }: { status: StatusMessage; width: number }) {
  return (
    <Box height={1} width={width} flexShrink={0}>
      <Text wrap="truncate-end" {...(status.tone === "error" ? theme.error : theme.accent)}>
        {sanitizeLine(status.text)}
      </Text>
    </Box>
  );
}

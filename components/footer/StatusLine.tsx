import { Box, Text } from "ink";
import { sanitizeLine } from "../../src/text/sanitize.js";
import type { StatusMessage } from "../../src/browser/lifecycle/lifecycle.js";
import { theme } from "../theme/theme.js";
import { fitStatus } from "./fitStatus.js";

interface Props {
  /** The last action's result or error; it fades after a few seconds (App's timer). */
  status?: StatusMessage;
  /** A failed scan stays until the next scan. */
  scanError?: string;
  width: number;
}

/** The line above the key hints for transient messages: "Moved 3 sessions to the trash — u to undo". */
export function StatusLine({ status, scanError, width }: Props) {
  const text = status?.text ? status.text : scanError ? `scan failed: ${scanError}` : "";
  const error = status?.text ? status.tone === "error" : !!scanError;
  // A negative result ("nothing to undo", "no match") gets no ✓: nothing was done.
  const note = !error && status?.tone === "note";
  const mark = error ? "✗ " : note ? "· " : "✓ ";
  return (
    <Box height={1} width={width} flexShrink={0}>
      <Text wrap="truncate-end" {...(error ? theme.error : note ? theme.muted : theme.accent)}>
        {text ? `${mark}${fitStatus(sanitizeLine(text), width - 2)}` : " "}
      </Text>
    </Box>
  );
}

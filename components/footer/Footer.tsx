import { Box, Text } from "ink";
import type { Mode } from "../keys/commands.js";
import type { Keymap } from "../keys/keymap.js";
import { sanitizeLine } from "../../src/text/sanitize.js";
import { theme } from "../theme.js";
import { footerText, hintsFor } from "./hints.js";

interface Props {
  mode: Mode;
  keymap: Keymap;
  width: number;
  print: boolean;
  /** A message that takes the footer's place (a search error, a failed resume). */
  message?: string;
}

export function Footer({ mode, keymap, width, print, message }: Props) {
  return (
    <Box height={1} width={width} flexShrink={0}>
      {message ? (
        <Text wrap="truncate-end" {...theme.error}>
          {sanitizeLine(message)}
        </Text>
      ) : (
        <Text wrap="truncate-end" {...theme.muted}>
          {footerText(hintsFor(mode, print), keymap, width, mode)}
        </Text>
      )}
    </Box>
  );
}

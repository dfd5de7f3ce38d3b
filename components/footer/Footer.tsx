import { Box, Text } from "ink";
import type { CommandId, Mode } from "../../src/browser/keys/commands.js";
import type { Keymap } from "../../src/browser/keys/keymap.js";
import { theme } from "../theme/theme.js";
import { footerText, hintsFor } from "./hints.js";

interface Props {
  mode: Mode;
  keymap: Keymap;
  width: number;
  print: boolean;
  /** Commands that cannot act now: not offered. */
  disabled?: (c: CommandId) => boolean;
}

/** The key hints: what the keys do in this mode, the least important dropped first when narrow. */
export function Footer({ mode, keymap, width, print, disabled }: Props) {
  return (
    <Box height={1} width={width} flexShrink={0}>
      <Text wrap="truncate-end" {...theme.muted}>
        {footerText(hintsFor(mode, print, disabled), keymap, width, mode)}
      </Text>
    </Box>
  );
}

import { Box, Text } from "ink";
import type { Mode } from "../../src/browser/keys/commands.js";
import type { Keymap } from "../../src/browser/keys/keymap.js";
import { theme } from "../theme/theme.js";
import { footerText, hintsFor } from "./hints.js";

interface Props {
  mode: Mode;
  keymap: Keymap;
  width: number;
  print: boolean;
}

/** The key hints: what the keys do in this mode, the least important dropped first when narrow. */
export function Footer({ mode, keymap, width, print }: Props) {
  return (
    <Box height={1} width={width} flexShrink={0}>
      <Text wrap="truncate-end" {...theme.muted}>
        {footerText(hintsFor(mode, print), keymap, width, mode)}
      </Text>
    </Box>
  );
}

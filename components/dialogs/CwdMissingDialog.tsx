import { Box, Text } from "ink";
import { sanitizeLine, truncateStartToWidth } from "../../src/text/sanitize.js";
import { borderColor, theme } from "../theme.js";

interface Props {
  cwd: string;
  launchCwd: string;
  width: number;
  height: number;
}

export function CwdMissingDialog({ cwd, launchCwd, width, height }: Props) {
  const room = Math.max(8, width - 6);
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={borderColor} paddingX={1} flexShrink={0} overflow="hidden">
      <Text {...theme.warning} wrap="truncate-end">
        The session's folder no longer exists:
      </Text>
      <Text wrap="truncate-end">{"  " + truncateStartToWidth(sanitizeLine(cwd), room)}</Text>
      <Text> </Text>
      <Text wrap="truncate-end">
        <Text {...theme.key}>Enter/o</Text> open in the current directory ({truncateStartToWidth(sanitizeLine(launchCwd), Math.max(8, room - 40))})
      </Text>
      <Text wrap="truncate-end">
        <Text {...theme.key}>Esc/c</Text> cancel
      </Text>
    </Box>
  );
}

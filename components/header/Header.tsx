import { Box, Text } from "ink";
import { theme } from "../theme/theme.js";
import { type HeaderInfo, headerText } from "./headerText.js";

export function Header({ info, width }: { info: HeaderInfo; width: number }) {
  return (
    <Box height={1} width={width} flexShrink={0}>
      <Text wrap="truncate-end" {...theme.title}>
        {headerText(info, width)}
      </Text>
    </Box>
  );
}

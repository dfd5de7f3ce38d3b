import { Box } from "ink";
import type { ReactNode } from "react";

/**
 * The one frame every screen is drawn in: a header line, the body, the status line and
 * the footer line (hints or an input), so the list, tree and reader screens line up and
 * keep their rows where the eye expects them when one screen gives way to another.
 */
export function ScreenFrame({
  width,
  height,
  header,
  status,
  footer,
  children,
}: {
  width: number;
  height: number;
  header: ReactNode;
  status: ReactNode;
  footer: ReactNode;
  children: ReactNode;
}) {
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Box height={1} width={width} flexShrink={0}>
        {header}
      </Box>
      {children}
      {status}
      <Box height={1} width={width} flexShrink={0}>
        {footer}
      </Box>
    </Box>
  );
}

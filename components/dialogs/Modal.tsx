import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { displayWidth, padToWidth, truncateToWidth } from "../../src/text/sanitize.js";
import { borderColor, theme } from "../theme/theme.js";
import { modalBox } from "./modalBox.js";

interface Props {
  /** The area the dialog is centred in (the body between header and footer). */
  areaWidth: number;
  areaHeight: number;
  /** The dialog's size, border included (from its content: modalWidth, line count + 2). */
  width: number;
  height: number;
  title: string;
  children: ReactNode;
}

/**
 * A dialog drawn over the screen, sized to its content and centred: an absolutely
 * placed box whose rows are written in full (padded), so nothing beneath shows through,
 * colours or not. The title sits in the top border, as lazygit's and k9s's do.
 */
export function Modal({ areaWidth, areaHeight, width, height, title, children }: Props) {
  const box = modalBox(areaWidth, areaHeight, width, height);
  const inner = Math.max(1, box.width - 2);
  const top = truncateToWidth(`─ ${title} `, inner);
  return (
    <Box
      position="absolute"
      marginLeft={box.left}
      marginTop={box.top}
      width={box.width}
      height={box.height}
      flexDirection="column"
    >
      <Text {...theme.border}>
        {"╭"}
        <Text {...theme.title}>{top}</Text>
        {"─".repeat(Math.max(0, inner - displayWidth(top)))}
        {"╮"}
      </Text>
      <Box
        borderStyle="round"
        borderTop={false}
        borderColor={borderColor}
        width={box.width}
        height={box.height - 1}
        flexDirection="column"
        overflow="hidden"
      >
        <Box flexDirection="column" flexShrink={0}>
          {children}
        </Box>
        {/* Blank rows under the content, as many as fit: no row of the dialog lets the screen beneath show. */}
        <Box flexDirection="column" flexShrink={1} overflow="hidden">
          {Array.from({ length: box.height }, (_, i) => (
            <Text key={i}>{" ".repeat(inner)}</Text>
          ))}
        </Box>
      </Box>
    </Box>
  );
}

/** One full-width row of a dialog: a space, the text padded to the inner width, so it covers what is beneath. */
export function ModalLine({ text, width, tone }: { text: string; width: number; tone?: keyof typeof theme }) {
  return (
    <Text {...(tone ? theme[tone] : {})}>
      {" " + padToWidth(truncateToWidth(text, Math.max(0, width - 4)), Math.max(0, width - 4)) + " "}
    </Text>
  );
}

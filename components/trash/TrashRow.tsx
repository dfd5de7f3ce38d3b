import { Text } from "ink";
import { memo } from "react";
import type { TrashItem } from "../../src/browser/trash/trashTypes.js";
import { theme } from "../theme/theme.js";
import { SELECTED_MARKER } from "../list/rowFormat.js";
import { trashRowText } from "./trashRowText.js";

interface Props {
  record: TrashItem;
  width: number;
  selected: boolean;
  now: number;
}

/** One trashed session; memoised so a cursor move redraws two rows. */
export const TrashRow = memo(function TrashRow({ record, width, selected, now }: Props) {
  const line = (selected ? SELECTED_MARKER : "  ") + trashRowText(record, Math.max(0, width - 2), now);
  return (
    <Text wrap="truncate-end" {...(selected ? theme.selected : {})}>
      {line}
    </Text>
  );
});

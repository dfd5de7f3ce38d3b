import { type TrashItem, trashTitle } from "../../src/browser/trash/trashTypes.js";
import { formatBytes } from "../../src/text/format.js";
import { sanitizeLine } from "../../src/text/sanitize.js";
import { type DialogLine, LinesDialog } from "./LinesDialog.js";

interface Props {
  record: TrashItem;
  /** 1: the first question; 2: the second, last one. */
  step: 1 | 2;
  width: number;
  height: number;
}

/** The two questions before a trashed session is deleted for good: y, then Y, goes on; Enter cancels. */
export function purgeLines(record: TrashItem, step: 1 | 2): DialogLine[] {
  const title = sanitizeLine(trashTitle(record));
  if (step === 1)
    return [
      { text: `Delete "${title}" for good?` },
      { text: sanitizeLine(record.original), tone: "muted", path: true },
      { text: `${formatBytes(record.bytes)} in the trash; it can no longer be restored afterwards.`, tone: "warning" },
      { text: "" },
      { text: "▸ Cancel (Enter, Esc, any key)  ·  y go on", tone: "key" },
    ];
  return [
    { text: `Really delete "${title}" for good?`, tone: "error" },
    { text: "This cannot be undone.", tone: "error" },
    { text: "" },
    { text: "▸ Cancel (Enter, Esc, y, any key)  ·  Y (capital) delete for good", tone: "key" },
  ];
}

export function PurgeDialog({ record, step, width, height }: Props) {
  const title = step === 1 ? "Delete for good" : "Delete for good: last question";
  return <LinesDialog title={title} lines={purgeLines(record, step)} width={width} height={height} />;
}

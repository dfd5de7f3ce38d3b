import { RECENT_WRITE_MS } from "../../src/actions/recent-write.js";
import { displayWidth, sanitizeLine } from "../../src/text/sanitize.js";
import type { PendingWrite } from "../../src/browser/tree/treeState.js";
import { Modal, ModalLine } from "./Modal.js";
import { modalWidth } from "./modalBox.js";
interface ConfirmProps {
  write: PendingWrite;
  fileName: string;
  width: number;
  height: number;
}

/** The file changed seconds ago: pi may have it open. Default no. A dialog over the tree, sized to its text. */
export function ConfirmWriteDialog({ write, fileName, width, height }: ConfirmProps) {
  const what =
    write.op === "label"
      ? write.label.trim()
        ? "add a label"
        : "clear a label"
      : "move the session's position to this entry";
  const lines: { text: string; tone?: "warning" | "key" }[] = [
    { text: `This session changed in the last ${RECENT_WRITE_MS / 1000} seconds.`, tone: "warning" },
    { text: "  " + sanitizeLine(fileName) },
    { text: "" },
    { text: `About to ${what}.` },
    { text: "pi may have this session open — write anyway? y/N" },
    { text: "" },
    { text: "y write anyway · n/Esc/Enter cancel", tone: "key" },
  ];
  const w = modalWidth(
    lines.map((l) => displayWidth(l.text)),
    Math.max(20, width - 4),
  );
  return (
    <Modal areaWidth={width} areaHeight={height} width={w} height={lines.length + 2} title="Write anyway?">
      {lines.map((l, i) => (
        <ModalLine key={i} width={w} tone={l.tone} text={l.text} />
      ))}
    </Modal>
  );
}

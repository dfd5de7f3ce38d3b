import { displayWidth, sanitizeLine, truncateToWidth } from "../../src/text/sanitize.js";
import type { TextInput } from "../../src/browser/core/textInput.js";
import { Modal, ModalLine } from "../dialogs/Modal.js";
import { modalWidth } from "../dialogs/modalBox.js";
import { TextFieldDialog } from "../dialogs/TextFieldDialog.js";
import type { PendingWrite } from "../../src/browser/tree/treeState.js";

interface LabelProps {
  entryText: string;
  input: TextInput;
  width: number;
  height: number;
}

/** The label being typed; an empty label clears it. */
export function LabelDialog({ entryText, input, width, height }: LabelProps) {
  const subject = truncateToWidth(sanitizeLine(entryText), Math.max(8, width - 6));
  return (
    <TextFieldDialog
      heading="Label the entry"
      subject={subject}
      field="Label"
      input={input}
      hint="Enter save · Esc cancel · an empty label clears it"
      width={width}
      height={height}
    />
  );
}

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
    { text: "This session changed in the last 10 seconds.", tone: "warning" },
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

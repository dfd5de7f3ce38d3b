import type { CommandId } from "../../src/browser/keys/commands.js";
import { type Keymap, keysLabel } from "../../src/browser/keys/keymap.js";
import { type Choice, ChoiceList } from "./ChoiceList.js";
import { Modal, ModalLine } from "./Modal.js";
import { modalWidth } from "./modalBox.js";

/** The export formats, as the dialog lists them. */
export const EXPORT_CHOICES: readonly { command: CommandId; label: string }[] = [
  { command: "export.md", label: "Markdown (this branch)" },
  { command: "export.mdAll", label: "Markdown (every branch)" },
  { command: "export.html", label: "HTML page (self-contained)" },
  { command: "export.jsonl", label: "JSONL: a session file pi opens" },
];

interface Props {
  title: string;
  /** Where the file goes (shown so the user knows before choosing). */
  dir: string;
  keymap: Keymap;
  areaWidth: number;
  areaHeight: number;
  onChoose(command: CommandId): void;
}

/** `e`: which format to export to; the file goes into the current folder under a new name. */
export function ExportDialog({ title, dir, keymap, areaWidth, areaHeight, onChoose }: Props) {
  const choices: Choice[] = EXPORT_CHOICES.map((c) => ({
    label: c.label,
    keys: keysLabel(keymap, c.command, 1),
    command: c.command,
  }));
  const note = `to a new file in ${dir}`;
  const width = modalWidth(
    [...choices.map((c) => c.label.length + c.keys.length + 6), title.length + 12, note.length + 4],
    Math.min(80, areaWidth - 4),
    44,
  );
  return (
    <Modal
      areaWidth={areaWidth}
      areaHeight={areaHeight}
      width={width}
      height={choices.length + 5}
      title={`Export · ${title}`}
    >
      <ModalLine width={width} tone="muted" text={note} />
      <ModalLine width={width} text="" />
      <ChoiceList choices={choices} width={width} onChoose={onChoose} />
      <ModalLine width={width} tone="muted" text="↑↓ Enter export · Esc cancel" />
    </Modal>
  );
}

import { displayWidth, truncatePathToWidth } from "../../src/text/sanitize.js";
import { Modal, ModalLine } from "./Modal.js";
import { modalWidth } from "./modalBox.js";

/** A line of a question dialog; a `path` is indented and cut from its start, so its end shows. */
export type DialogLine = { text: string; tone?: "warning" | "error" | "key" | "muted"; path?: boolean };

interface Props {
  title: string;
  lines: readonly DialogLine[];
  /** The area it is centred in. */
  width: number;
  height: number;
}

/** A dialog of lines sized to them (at most 50 wide unless a line needs more): the delete questions. */
export function LinesDialog({ title, lines, width, height }: Props) {
  const w = modalWidth(
    lines.map((l) => displayWidth(l.text) + (l.path ? 2 : 0)),
    Math.max(20, width - 4),
    50,
  );
  return (
    <Modal areaWidth={width} areaHeight={height} width={w} height={lines.length + 2} title={title}>
      {lines.map((l, i) => (
        <ModalLine key={i} width={w} tone={l.tone} text={l.path ? "  " + truncatePathToWidth(l.text, w - 6) : l.text} />
      ))}
    </Modal>
  );
}

import { Text } from "ink";
import { displayWidth, sanitizeLine, truncateToWidth } from "../../src/text/sanitize.js";
import type { TextInput } from "../../src/browser/core/textInput.js";
import { theme } from "../theme/theme.js";
import { Modal, ModalLine } from "./Modal.js";
import { modalWidth } from "./modalBox.js";

interface Props {
  heading: string;
  /** What is being named or labelled (already sanitized). */
  subject: string;
  field: string;
  input: TextInput;
  hint: string;
  /** A warning line above the hint (the file may be open in pi). */
  warning?: string;
  width: number;
  height: number;
}

/** The visible part of a one-line field: text before the cursor (kept in view), the cursor cell, and after. */
export function fieldView(input: TextInput, room: number): { before: string; at: string; after: string } {
  const chars = Array.from(input.value);
  const before = chars.slice(0, input.cursor);
  const shown = before.length + 1 > room ? "…" + before.slice(-(room - 2)).join("") : before.join("");
  const after = truncateToWidth(
    chars.slice(input.cursor + 1).join(""),
    Math.max(0, room - Array.from(shown).length - 1),
  );
  // The field may hold text from a file (a label, a name): shown through the sanitizer too.
  return {
    before: sanitizeLine(shown),
    at: sanitizeLine(chars[input.cursor] ?? " ") || " ",
    after: sanitizeLine(after),
  };
}

/** A dialog with one text field and a block cursor (rename, label), centred in the `width`×`height` area. */
export function TextFieldDialog({ heading, subject, field, input, hint, warning, width, height }: Props) {
  const w = modalWidth(
    [displayWidth(subject) + 2, displayWidth(hint), displayWidth(warning ?? ""), 56],
    Math.max(20, width - 4),
  );
  const v = fieldView(input, Math.max(8, w - 6 - displayWidth(field) - 2));
  const fieldW = displayWidth(field) + 2 + displayWidth(v.before) + displayWidth(v.at) + displayWidth(v.after);
  return (
    <Modal areaWidth={width} areaHeight={height} width={w} height={warning ? 8 : 7} title={heading}>
      <ModalLine width={w} text={"  " + sanitizeLine(subject)} />
      <ModalLine width={w} text="" />
      <Text>
        {" "}
        <Text {...theme.key}>{field}: </Text>
        <Text>{v.before}</Text>
        <Text inverse>{v.at}</Text>
        <Text>{v.after}</Text>
        {" ".repeat(Math.max(0, w - 3 - fieldW))}
      </Text>
      <ModalLine width={w} text="" />
      {warning && <ModalLine width={w} tone="warning" text={warning} />}
      <ModalLine width={w} tone="muted" text={hint} />
    </Modal>
  );
}

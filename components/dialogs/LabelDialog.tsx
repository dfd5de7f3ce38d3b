import { sanitizeLine, truncateToWidth } from "../../src/text/sanitize.js";
import type { TextInput } from "../../src/browser/core/textInput.js";
import { TextFieldDialog } from "./TextFieldDialog.js";
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

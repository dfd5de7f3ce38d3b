import type { TextInput } from "../../src/browser/core/textInput.js";
import { TextFieldDialog } from "./TextFieldDialog.js";

interface Props {
  title: string;
  input: TextInput;
  /** Said above the hint: pi may have the file open (the one rule, src/actions/recent-write.ts). */
  warning?: string;
  width: number;
  height: number;
}

/** The name being typed; an empty name clears it. */
export function RenameDialog({ title, input, warning, width, height }: Props) {
  return (
    <TextFieldDialog
      heading="Rename session"
      subject={title}
      field="Name"
      input={input}
      hint="Enter save · Esc cancel · an empty name clears it"
      warning={warning}
      width={width}
      height={height}
    />
  );
}

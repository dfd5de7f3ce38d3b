import type { TextInput } from "../../src/browser/core/textInput.js";
import { TextFieldDialog } from "./TextFieldDialog.js";

interface Props {
  title: string;
  input: TextInput;
  width: number;
  height: number;
}

/** The name being typed; an empty name clears it. */
export function RenameDialog({ title, input, width, height }: Props) {
  return (
    <TextFieldDialog
      heading="Rename session"
      subject={title}
      field="Name"
      input={input}
      hint="Enter save · Esc cancel · an empty name clears it"
      width={width}
      height={height}
    />
  );
}

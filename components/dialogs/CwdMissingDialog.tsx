import { sanitizeLine, truncateStartToWidth } from "../../src/text/sanitize.js";
import type { CommandId } from "../../src/browser/keys/commands.js";
import { type Keymap, keysLabel } from "../../src/browser/keys/keymap.js";
import { type Choice, ChoiceList } from "./ChoiceList.js";
import { Modal, ModalLine } from "./Modal.js";
import { modalWidth } from "./modalBox.js";

interface Props {
  cwd: string;
  launchCwd: string;
  keymap: Keymap;
  areaWidth: number;
  areaHeight: number;
  onChoose(command: CommandId): void;
}

/**
 * The session's folder is gone: pi 1.5.2's three choices, in its order, with the focus on
 * Cancel: the Enter that resumed, pressed again by reflex, must not start the agent in
 * another folder than the session's (it reads and writes files there).
 */
export function CwdMissingDialog({ cwd, launchCwd, keymap, areaWidth, areaHeight, onChoose }: Props) {
  const width = modalWidth([60, sanitizeLine(cwd).length + 2], Math.min(90, areaWidth - 4));
  const room = width - 6;
  const choices: Choice[] = [
    {
      label: "Continue in the current folder",
      keys: keysLabel(keymap, "dialog.confirm", 1),
      command: "dialog.confirm",
    },
    {
      label: "Fork into the current folder (a new session)",
      keys: keysLabel(keymap, "dialog.fork", 1),
      command: "dialog.fork",
    },
    { label: "Cancel", keys: keysLabel(keymap, "dialog.cancel", 1), command: "dialog.cancel" },
  ];
  return (
    <Modal
      areaWidth={areaWidth}
      areaHeight={areaHeight}
      width={width}
      height={7 + choices.length}
      title="Folder missing"
    >
      <ModalLine width={width} tone="warning" text="The session's folder no longer exists:" />
      <ModalLine width={width} text={"  " + truncateStartToWidth(sanitizeLine(cwd), room)} />
      <ModalLine
        width={width}
        tone="muted"
        text={"current folder: " + truncateStartToWidth(sanitizeLine(launchCwd), room - 16)}
      />
      <ModalLine width={width} text="" />
      <ChoiceList choices={choices} width={width} onChoose={onChoose} initial={choices.length - 1} />
      <ModalLine width={width} tone="muted" text="↑↓ choose · Enter or the key at the right" />
    </Modal>
  );
}

import type { CommandId } from "../../src/browser/keys/commands.js";
import { type Keymap, keysLabel } from "../../src/browser/keys/keymap.js";
import { MENU_ACTIONS, type MenuScreen } from "../../src/browser/keys/menuActions.js";
import { type Choice, ChoiceList } from "./ChoiceList.js";
import { Modal, ModalLine } from "./Modal.js";
import { modalWidth } from "./modalBox.js";

interface Props {
  title: string;
  screen: MenuScreen;
  keymap: Keymap;
  print: boolean;
  areaWidth: number;
  areaHeight: number;
  onChoose(command: CommandId): void;
}

export function menuChoices(keymap: Keymap, print: boolean, screen: MenuScreen = "list"): Choice[] {
  return MENU_ACTIONS[screen].map((a) => ({
    label:
      a.command === "session.resume" && print
        ? "Pick this session"
        : a.command === "tree.resume" && print
          ? "Pick this session here"
          : a.label,
    keys: keysLabel(keymap, a.command, 1, screen),
    command: a.command,
  }));
}

export function ActionMenu({ title, screen, keymap, print, areaWidth, areaHeight, onChoose }: Props) {
  const choices = menuChoices(keymap, print, screen);
  // A short screen shows part of the list, which scrolls.
  const rows = Math.max(3, areaHeight - 4);
  const width = modalWidth(
    [...choices.map((c) => c.label.length + c.keys.length + 6), title.length + 4],
    Math.min(70, areaWidth - 4),
    40,
  );
  return (
    <Modal
      areaWidth={areaWidth}
      areaHeight={areaHeight}
      width={width}
      height={Math.min(choices.length, rows) + 4}
      title={`Actions · ${title}`}
    >
      <ChoiceList choices={choices} width={width} onChoose={onChoose} limit={rows} />
      <ModalLine width={width} text="" />
      <ModalLine
        width={width}
        tone="muted"
        text={
          choices.length > rows
            ? `↑↓ more (${rows} of ${choices.length} shown) · Enter or its key runs it · Esc close`
            : "↑↓ Enter or its key runs it · Esc close"
        }
      />
    </Modal>
  );
}

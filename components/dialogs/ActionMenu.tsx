import type { CommandId } from "../keys/commands.js";
import { type Keymap, keysLabel } from "../keys/keymap.js";
import { type Choice, ChoiceList } from "./ChoiceList.js";
import { Modal, ModalLine } from "./Modal.js";
import { modalWidth } from "./modalBox.js";

/** Every action on a session, in the order a user reaches for them (lazygit's `x`). */
export const MENU_ACTIONS: readonly { command: CommandId; label: string }[] = [
  { command: "session.resume", label: "Resume in pi" },
  { command: "tree.open", label: "Open the branch tree" },
  { command: "session.rename", label: "Rename" },
  { command: "session.mark", label: "Mark for a bulk delete" },
  { command: "session.delete", label: "Delete (to the trash)" },
  { command: "session.undo", label: "Undo the last delete" },
  { command: "reader.open", label: "Read the conversation" },
  { command: "session.new", label: "New pi session in its folder" },
  { command: "export.open", label: "Export (Markdown, HTML, JSONL)" },
  { command: "copy.message", label: "Copy the first message" },
  { command: "copy.path", label: "Copy the file path" },
  { command: "copy.id", label: "Copy the session id" },
  { command: "copy.command", label: "Copy the resume command" },
  { command: "session.deletePermanently", label: "Delete permanently" },
  { command: "search.start", label: "Search" },
  { command: "scope.toggle", label: "Scope: this folder / all" },
  { command: "sort.cycle", label: "Next sort order" },
  { command: "usage.open", label: "Usage: tokens and cost by day, folder, model" },
  { command: "help.open", label: "All keys" },
];

interface Props {
  title: string;
  keymap: Keymap;
  print: boolean;
  areaWidth: number;
  areaHeight: number;
  onChoose(command: CommandId): void;
}

export function menuChoices(keymap: Keymap, print: boolean): Choice[] {
  return MENU_ACTIONS.map((a) => ({
    label: a.command === "session.resume" && print ? "Pick this session" : a.label,
    keys: keysLabel(keymap, a.command, 1),
    command: a.command,
  }));
}

export function ActionMenu({ title, keymap, print, areaWidth, areaHeight, onChoose }: Props) {
  const choices = menuChoices(keymap, print);
  // A short screen shows part of the list, which scrolls.
  const rows = Math.max(3, areaHeight - 4);
  const width = modalWidth([...choices.map((c) => c.label.length + c.keys.length + 6), title.length + 4], Math.min(70, areaWidth - 4), 40);
  return (
    <Modal areaWidth={areaWidth} areaHeight={areaHeight} width={width} height={Math.min(choices.length, rows) + 4} title={`Actions · ${title}`}>
      <ChoiceList choices={choices} width={width} onChoose={onChoose} limit={rows} />
      <ModalLine width={width} text="" />
      <ModalLine width={width} tone="muted" text="↑↓ Enter run · Esc close" />
    </Modal>
  );
}

import { Text } from "ink";
import SelectInput from "ink-select-input";
import { useMemo } from "react";
import { padToWidth, truncateToWidth } from "../../src/text/sanitize.js";
import type { CommandId } from "../../src/browser/keys/commands.js";
import { theme } from "../theme/theme.js";

export interface Choice {
  label: string;
  /** The key that picks it directly, shown at the right. */
  keys: string;
  command: CommandId;
}

interface Props {
  choices: readonly Choice[];
  /** The dialog's width, border included: rows are padded to cover what is beneath. */
  width: number;
  onChoose(command: CommandId): void;
  /** Rows shown at once (the list scrolls); all when absent. */
  limit?: number;
  /** The choice that has the focus at first (Enter picks it); the first when absent. */
  initial?: number;
}

const Item = ({ isSelected = false, label }: { isSelected?: boolean; label: string }) => (
  <Text {...(isSelected ? theme.selected : {})}>{label}</Text>
);

const Indicator = ({ isSelected = false }: { isSelected?: boolean }) =>
  isSelected ? <Text {...theme.selected}>{" ❯ "}</Text> : <Text>{"   "}</Text>;

/**
 * A choice dialog's list (ink-select-input: ↑↓ or j/k, Enter, or 1–9). Rows are padded to
 * the dialog's width so the dialog covers the screen beneath it.
 */
export function ChoiceList({ choices, width, onChoose, limit, initial }: Props) {
  const room = Math.max(4, width - 5);
  const items = useMemo(
    () =>
      choices.map((c) => {
        const keyW = Math.min(room - 2, [...c.keys].length);
        const label = truncateToWidth(c.label, Math.max(1, room - keyW - 1));
        return { key: c.command, value: c.command, label: padToWidth(label, room - keyW) + c.keys };
      }),
    [choices, room],
  );
  return (
    <SelectInput
      items={items}
      indicatorComponent={Indicator}
      itemComponent={Item}
      {...(limit !== undefined && limit < choices.length ? { limit: Math.max(1, limit) } : {})}
      {...(initial !== undefined ? { initialIndex: initial } : {})}
      onSelect={(i) => onChoose(i.value)}
    />
  );
}

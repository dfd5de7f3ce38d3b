import type { Key } from "./key.js";
import { type Binding, formatBinding, isPrintable, matches, parseBinding } from "./binding.js";
import { COMMANDS, type CommandId, type Mode, MODE_COMMANDS, TEXT_MODES } from "./commands.js";

export type Keymap = ReadonlyMap<CommandId, readonly Binding[]>;

/** User overrides: a command's list replaces its defaults; [] unbinds it. */
export type KeymapOverrides = Partial<Record<CommandId, readonly string[]>>;

export function createKeymap(overrides: KeymapOverrides = {}): Keymap {
  const map = new Map<CommandId, Binding[]>();
  // A key the user bound is theirs: other commands lose it from their defaults.
  const taken = new Set(
    Object.values(overrides).flatMap((specs) => (specs ?? []).map((k) => formatBinding(parseBinding(k)))),
  );
  for (const id of Object.keys(COMMANDS) as CommandId[]) {
    const own = overrides[id];
    const bindings = (own ?? COMMANDS[id].keys).map(parseBinding);
    map.set(id, own ? bindings : bindings.filter((b) => !taken.has(formatBinding(b))));
  }
  return map;
}

export const DEFAULT_KEYMAP: Keymap = createKeymap();

/**
 * The command a key means in a mode, or null. In text modes a plain printable
 * binding (like j or s) is skipped so the character is typed instead.
 */
export function commandFor(keymap: Keymap, mode: Mode, input: string, key: Key): CommandId | null {
  const text = TEXT_MODES.has(mode);
  for (const id of MODE_COMMANDS[mode]) {
    for (const b of keymap.get(id) ?? []) {
      if (text && isPrintable(b)) continue;
      if (matches(b, input, key)) return id;
    }
  }
  return null;
}

/** "↑/k" style label of a command's keys, for hints and help. In a text mode, typed keys are left out. */
export function keysLabel(keymap: Keymap, id: CommandId, max = 3, mode?: Mode): string {
  const text = mode !== undefined && TEXT_MODES.has(mode);
  return (keymap.get(id) ?? [])
    .filter((b) => !(text && isPrintable(b)))
    .slice(0, max)
    .map(formatBinding)
    .join("/");
}

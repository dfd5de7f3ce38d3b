import type { Key } from "./key.js";
import { type Binding, formatBinding, isPrintable, matches, parseBinding } from "./binding.js";
import { type Command, COMMANDS, type CommandId, type Mode, MODE_COMMANDS, TEXT_MODES } from "./commands.js";
import { PI_DEFAULT_KEYS, type PiBindings, type PiId } from "./piKeys.js";

export type Keymap = ReadonlyMap<CommandId, readonly Binding[]>;

/** User overrides: a command's list replaces its defaults; [] unbinds it. */
export type KeymapOverrides = Partial<Record<CommandId, readonly string[]>>;

/** The keys every screen and dialog keeps (Ctrl+C, Ctrl+Z): a pi key among them means that already. */
const EVERY_MODE_KEYS = new Set(
  (["app.interrupt", "app.suspend"] as const).flatMap((id) =>
    COMMANDS[id].keys.map((k) => formatBinding(parseBinding(k))),
  ),
);

/** Whether two commands ever listen on the same screen or dialog (so one key cannot mean both). */
export function shareAMode(a: CommandId, b: CommandId): boolean {
  return Object.values(MODE_COMMANDS).some((ids) => ids.includes(a) && ids.includes(b));
}

const piIdsOf = (id: CommandId): readonly PiId[] => (COMMANDS[id] as Command).pi ?? [];

/**
 * The key map, in three layers: pi's default keys for the commands that name a pi id,
 * then the user's pi keybindings.json (`pi`: an id's keys replace pi's default; [] unbinds),
 * then this project's own `keys` setting (`overrides`), which replaces a command's keys
 * whatever they came from. A key the user bound on purpose is theirs: a key from the
 * config leaves every other command's defaults; a key from keybindings.json leaves the
 * defaults of the commands on its screens (pi gives one key a meaning per screen).
 */
export function createKeymap(overrides: KeymapOverrides = {}, pi: PiBindings = {}): Keymap {
  const map = new Map<CommandId, Binding[]>();
  const taken = new Set(
    Object.values(overrides).flatMap((specs) => (specs ?? []).map((k) => formatBinding(parseBinding(k)))),
  );
  const ids = Object.keys(COMMANDS) as CommandId[];
  // Keys the user's keybindings.json gives: key name → the commands whose pi id it was given to.
  const piTaken = new Map<string, CommandId[]>();
  for (const id of ids) {
    if (overrides[id]) continue;
    for (const p of piIdsOf(id))
      for (const k of pi[p] ?? []) {
        const name = formatBinding(parseBinding(k));
        piTaken.set(name, [...(piTaken.get(name) ?? []), id]);
      }
  }
  const takenByPi = (id: CommandId, name: string) =>
    (piTaken.get(name) ?? []).some((o) => o !== id && shareAMode(o, id));
  for (const id of ids) {
    const own = overrides[id];
    if (own) {
      map.set(id, own.map(parseBinding));
      continue;
    }
    const out: Binding[] = [];
    const seen = new Set<string>();
    const add = (b: Binding, chosen: boolean) => {
      const name = formatBinding(b);
      if (seen.has(name) || taken.has(name)) return;
      if (!chosen && takenByPi(id, name)) return;
      seen.add(name);
      out.push(b);
    };
    for (const p of piIdsOf(id)) {
      const chosen = pi[p] !== undefined;
      for (const k of pi[p] ?? PI_DEFAULT_KEYS[p]) {
        const b = parseBinding(k);
        // Ctrl+C (pi's select cancel) quits or cancels on every screen here already.
        if (EVERY_MODE_KEYS.has(formatBinding(b))) continue;
        add({ ...b, pi: p }, chosen);
      }
    }
    for (const k of COMMANDS[id].keys) add(parseBinding(k), false);
    map.set(id, out);
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

/**
 * "↑/k" style label of a command's keys, for hints and help. In a text mode, typed keys are
 * left out, and so is Del for what is not the field's (the field takes it there).
 */
export function keysLabel(keymap: Keymap, id: CommandId, max = 3, mode?: Mode): string {
  const text = mode !== undefined && TEXT_MODES.has(mode);
  const fields = (b: Binding) => !id.startsWith("input.") && b.key === "delete" && !b.ctrl && !b.meta;
  return (keymap.get(id) ?? [])
    .filter((b) => !(text && (isPrintable(b) || fields(b))))
    .slice(0, max)
    .map(formatBinding)
    .join("/");
}

/** The pi ids a command's keys come from now, each with its keys ("Ctrl+D"): what the help names. */
export function piKeysOf(keymap: Keymap, id: CommandId): { pi: PiId; keys: string }[] {
  const by = new Map<PiId, string[]>();
  for (const b of keymap.get(id) ?? []) if (b.pi) by.set(b.pi, [...(by.get(b.pi) ?? []), formatBinding(b)]);
  return [...by].map(([pi, keys]) => ({ pi, keys: keys.join("/") }));
}

import { COMMANDS, type CommandId } from "./commands.js";
import { formatBinding, parseBinding } from "./binding.js";
import { createKeymap, type Keymap, shareAMode } from "./keymap.js";
import type { PiBindings } from "./piKeys.js";
import { sanitizeLine } from "../../text/sanitize.js";

/**
 * The keymap with the user's bindings (config "keys": command → key strings). Unknown
 * commands and unparsable keys give a warning each and keep that command's defaults. A key
 * the config gives to two commands that listen on the same screen is given to neither
 * (named in a warning); a command left with no key of its own keeps its defaults. `pi`: the
 * user's pi keybindings.json (piKeybindings.ts), under the config's keys.
 */
export function userKeymap(
  keys: Record<string, string[]>,
  pi: PiBindings = {},
): { keymap: Keymap; warnings: string[] } {
  const warnings: string[] = [];
  const overrides: Partial<Record<CommandId, string[]>> = {};
  for (const [id, specs] of Object.entries(keys)) {
    if (!(id in COMMANDS)) {
      warnings.push(`config: unknown command "${id}" in "keys" ignored (see the help overlay, ?, for names)`);
      continue;
    }
    try {
      specs.forEach(parseBinding);
      overrides[id as CommandId] = specs;
    } catch (err) {
      warnings.push(`config: keys.${id}: ${(err as Error).message}; keeping the default keys`);
    }
  }
  const ids = Object.keys(overrides) as CommandId[];
  const clashing = new Map<CommandId, Set<string>>();
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const [a, b] = [ids[i], ids[j]];
      if (!shareAMode(a, b)) continue;
      const bKeys = new Set(overrides[b]!.map((k) => formatBinding(parseBinding(k))));
      for (const k of overrides[a]!) {
        const name = formatBinding(parseBinding(k));
        if (!bKeys.has(name)) continue;
        warnings.push(`config: "${k}" is given to both ${a} and ${b}; neither gets it`);
        for (const id of [a, b]) clashing.set(id, (clashing.get(id) ?? new Set()).add(name));
      }
    }
  }
  for (const [id, names] of clashing) {
    const left = overrides[id]!.filter((k) => !names.has(formatBinding(parseBinding(k))));
    if (left.length > 0) overrides[id] = left;
    else {
      delete overrides[id];
      warnings.push(`config: ${id} keeps its default keys`);
    }
  }
  // They quote the settings file (its command names and keys): screen text, sanitized.
  return { keymap: createKeymap(overrides, pi), warnings: warnings.map(sanitizeLine) };
}

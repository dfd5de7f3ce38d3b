import { COMMANDS, type CommandId } from "./commands.js";
import { parseBinding } from "./binding.js";
import { createKeymap, type Keymap } from "./keymap.js";

/**
 * The keymap with the user's bindings (config "keys": command → key strings). Unknown
 * commands and unparsable keys give a warning each and keep that command's defaults.
 */
export function userKeymap(keys: Record<string, string[]>): { keymap: Keymap; warnings: string[] } {
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
  return { keymap: createKeymap(overrides), warnings };
}

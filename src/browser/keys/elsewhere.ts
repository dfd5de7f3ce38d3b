import type { Key } from "./key.js";
import { COMMANDS, type Mode } from "./commands.js";
import { commandFor, type Keymap } from "./keymap.js";

/** The screens a key can mean something on, and what each is called in a message. */
const SCREENS: readonly [Mode, string][] = [
  ["list", "the list"],
  ["tree", "the branch tree"],
  ["reader", "the reader"],
  ["usage", "the usage view"],
  ["trash", "the trash view"],
];

/**
 * What to say for a typed character that means nothing on this screen: what it does on
 * another (one key, one meaning: it is that screen's key), else that it does nothing here.
 * Undefined for what is not a typed character (a modifier, an arrow, a paste).
 */
export function unboundKeyNote(keymap: Keymap, mode: Mode, input: string, key: Key): string | undefined {
  if (key.ctrl || key.meta || [...input].length !== 1 || !/^\P{C}$/u.test(input) || input === " ") return undefined;
  for (const [other, name] of SCREENS) {
    if (other === mode) continue;
    const c = commandFor(keymap, other, input, key);
    if (c)
      return `${input}: ${COMMANDS[c].help.replace(/^\w+: /, "")}, in ${name}; not here · ? lists this screen's keys`;
  }
  // Not echoed: a key no screen has may be a stray character (a terminal's garbage, a paste).
  return "that key does nothing here · ? lists this screen's keys";
}

import { padToWidth, truncateToWidth } from "../../src/text/sanitize.js";
import { COMMANDS, type CommandId } from "../keys/commands.js";
import { type Keymap, keysLabel } from "../keys/keymap.js";

const SECTIONS: { title: string; prefixes: string[] }[] = [
  { title: "List", prefixes: ["list.", "scope.", "sort.", "session."] },
  { title: "Search", prefixes: ["search.", "input."] },
  { title: "Help and dialogs", prefixes: ["help.", "menu.", "dialog.", "rename.", "confirm."] },
  { title: "Branch tree (t or → on a session)", prefixes: ["tree."] },
  { title: "App", prefixes: ["app."] },
];

export interface HelpLine {
  text: string;
  heading?: boolean;
}

/** Every command of the registry with its current keys, grouped. */
export function helpLines(keymap: Keymap, width: number): HelpLine[] {
  const ids = Object.keys(COMMANDS) as CommandId[];
  const keyW = Math.min(22, Math.floor(width * 0.35));
  const out: HelpLine[] = [];
  for (const sec of SECTIONS) {
    if (out.length) out.push({ text: "" });
    out.push({ text: sec.title, heading: true });
    for (const id of ids.filter((i) => sec.prefixes.some((p) => i.startsWith(p)))) {
      const keys = keysLabel(keymap, id, 4) || "(unbound)";
      out.push({ text: truncateToWidth(`  ${padToWidth(keys, keyW)} ${COMMANDS[id].help}`, width) });
    }
  }
  return out;
}

/** Clamp a scroll offset to the content (the reducer lets it run past the end). */
export function clampHelpTop(top: number, total: number, height: number): number {
  return Math.max(0, Math.min(top, total - height));
}

import { padToWidth, truncateToWidth } from "../../text/sanitize.js";
import { COMMANDS, type CommandId } from "./commands.js";
import { type Keymap, keysLabel } from "./keymap.js";

const SECTIONS: { title: string; prefixes: string[] }[] = [
  { title: "List", prefixes: ["list.", "preview.", "scope.", "sort.", "session."] },
  { title: "Search", prefixes: ["search.", "input."] },
  { title: "Help and dialogs", prefixes: ["help.", "menu.", "dialog.", "rename.", "confirm."] },
  { title: "Branch tree (t or → on a session)", prefixes: ["tree."] },
  { title: "Transcript reader (v on a session or a tree entry)", prefixes: ["reader."] },
  { title: "Copy (OSC 52) and export", prefixes: ["copy.", "export."] },
  { title: "Usage (U in the list)", prefixes: ["usage."] },
  { title: "App", prefixes: ["app."] },
];

export interface HelpLine {
  text: string;
  heading?: boolean;
  /** The command's name, as the config file's "keys" takes it (also in `text`). */
  command?: CommandId;
}

/** Longest command name: the name column's width. */
const NAME_W = Math.max(...Object.keys(COMMANDS).map((id) => id.length));

/**
 * Every command of the registry with its current keys and its name, grouped; the names
 * are what the config file's "keys" binds (the README and config warnings send users here).
 */
export function helpLines(keymap: Keymap, width: number): HelpLine[] {
  const ids = Object.keys(COMMANDS) as CommandId[];
  const keyW = Math.min(22, Math.floor(width * 0.3));
  const out: HelpLine[] = [
    {
      text: truncateToWidth(
        `Rebind keys in the config file ("keys": { "<name>": ["key", …] }; pi-sessions config --path says where)`,
        width,
      ),
    },
  ];
  for (const sec of SECTIONS) {
    if (out.length) out.push({ text: "" });
    out.push({ text: sec.title, heading: true });
    for (const id of ids.filter((i) => sec.prefixes.some((p) => i.startsWith(p)))) {
      const keys = keysLabel(keymap, id, 4) || "(unbound)";
      out.push({
        text: truncateToWidth(`  ${padToWidth(keys, keyW)} ${padToWidth(id, NAME_W)}  ${COMMANDS[id].help}`, width),
        command: id,
      });
    }
  }
  return out;
}

/** Clamp a scroll offset to the content (the reducer lets it run past the end). */
export function clampHelpTop(top: number, total: number, height: number): number {
  return Math.max(0, Math.min(top, total - height));
}

import { padToWidth, truncateToWidth, wrapToWidth } from "../../text/sanitize.js";
import { COMMANDS, type CommandId } from "./commands.js";
import { type Keymap, keysLabel, piKeysOf } from "./keymap.js";

/** The help's sections; the screen it was opened from comes first. */
export type HelpSection = "list" | "search" | "dialogs" | "tree" | "reader" | "copy" | "usage" | "trash" | "app";

const SECTIONS: { id: HelpSection; title: string; prefixes: string[] }[] = [
  { id: "list", title: "List", prefixes: ["list.", "preview.", "scope.", "sort.", "session.", "skipped."] },
  { id: "search", title: "Search", prefixes: ["search.", "input."] },
  { id: "dialogs", title: "Help and dialogs", prefixes: ["help.", "menu.", "rename.", "confirm."] },
  { id: "tree", title: "Branch tree (t or → on a session)", prefixes: ["tree."] },
  { id: "reader", title: "Transcript reader (v on a session or a tree entry)", prefixes: ["reader."] },
  { id: "copy", title: "Copy (OSC 52) and export", prefixes: ["copy.", "export."] },
  { id: "usage", title: "Usage (U in the list)", prefixes: ["usage."] },
  { id: "trash", title: "Trash (X in the list)", prefixes: ["trash."] },
  { id: "app", title: "App", prefixes: ["app."] },
];

/** Narrower than this the command-name column goes, so the descriptions keep their room. */
export const HELP_NAMES_FROM = 100;

export interface HelpLine {
  text: string;
  heading?: boolean;
  /** The command's name, as the config file's "keys" takes it (also in `text`). */
  command?: CommandId;
}

/** A command's words in the help: its text, then pi's id beside each of its keys that comes from pi. */
function helpText(keymap: Keymap, id: CommandId): string {
  const pi = piKeysOf(keymap, id);
  const from = pi.map((p) => `${p.keys} is pi's ${p.pi}`).join(", ");
  return from ? `${COMMANDS[id].help} · ${from}` : COMMANDS[id].help;
}

/** Longest command name: the name column's width. */
const NAME_W = Math.max(...Object.keys(COMMANDS).map((id) => id.length));

/**
 * Every command of the registry with its current keys and its name, grouped, the section
 * of the screen it was opened from (`first`) first; the names are what the config file's
 * "keys" binds (the README and config warnings send users here). Descriptions wrap under
 * themselves; below HELP_NAMES_FROM columns the name column is left out.
 */
export function helpLines(keymap: Keymap, width: number, first?: HelpSection, filter = ""): HelpLine[] {
  const ids = Object.keys(COMMANDS) as CommandId[];
  const keyW = Math.min(22, Math.floor(width * 0.3));
  const names = width >= HELP_NAMES_FROM;
  const lead = 2 + keyW + 1 + (names ? NAME_W + 2 : 0);
  const descW = Math.max(10, width - lead);
  const want = filter.trim().toLowerCase();
  const out: HelpLine[] = wrapToWidth(
    names
      ? `pi's keys (and your pi keybindings.json) apply, named by pi's id; rebind any key in the config file ("keys": { "<name>": ["key", …] }; pi-sessions config --path says where)`
      : `pi's keys (and your pi keybindings.json) apply; rebind in the config file (pi-sessions config --path); ${HELP_NAMES_FROM} columns show the names`,
    width,
  ).map((text) => ({ text }));
  const sections = first
    ? [...SECTIONS.filter((x) => x.id === first), ...SECTIONS.filter((x) => x.id !== first)]
    : SECTIONS;
  for (const sec of sections) {
    const shown = ids.filter(
      (i) =>
        sec.prefixes.some((p) => i.startsWith(p)) &&
        (!want || `${keysLabel(keymap, i, 4)} ${i} ${helpText(keymap, i)}`.toLowerCase().includes(want)),
    );
    // Filtering: a section with no key left goes, heading and all.
    if (want && shown.length === 0) continue;
    out.push({ text: "" });
    out.push({ text: sec.title, heading: true });
    for (const id of shown) {
      const keys = keysLabel(keymap, id, 4) || "(unbound)";
      const [head = "", ...rest] = wrapToWidth(helpText(keymap, id), descW);
      const label = `  ${padToWidth(keys, keyW)} ${names ? `${padToWidth(id, NAME_W)}  ` : ""}`;
      out.push({ text: truncateToWidth(label + head, width), command: id });
      for (const more of rest) out.push({ text: truncateToWidth(" ".repeat(lead) + more, width), command: id });
    }
  }
  if (want && !out.some((l) => l.command)) out.push({ text: "" }, { text: `No key's words hold "${filter.trim()}".` });
  return out;
}

/** Clamp a scroll offset to the content (the reducer lets it run past the end). */
export function clampHelpTop(top: number, total: number, height: number): number {
  return Math.max(0, Math.min(top, total - height));
}

import { sanitizeLine, truncateToWidth } from "../../text/sanitize.js";
import { parseBinding } from "./binding.js";
import { isPiId, PI_LEGACY_NAMES, type PiBindings, type PiId } from "./piKeys.js";

/** pi's key syntax (its key-id schema): lower-case names, modifiers ctrl, shift, alt and super. */
const PI_KEY =
  /^(?:(?:ctrl|shift|alt|super)\+){0,4}(?:[a-z0-9]|[`\-=[\]\\;',./!@#$%^&*()_+|~{}:<>?]|escape|esc|enter|return|tab|space|backspace|delete|insert|clear|home|end|pageUp|pageDown|up|down|left|right|f[1-9]|f1[0-2])$/;

/**
 * The user's pi key bindings, read as pi 1.6.0 reads them (KeybindingsManager): a JSON
 * object of id → key or list of keys, old flat names taken as their new ids (the new
 * name wins), "$schema" and ids pi-sessions has no action for passed over, a value pi
 * would not take left out (pi's default stays). A key pi takes but a terminal cannot
 * read (f5, insert…) is left out of its list.
 * Anything wrong gives one warning line (sanitised), never an exception: the browser
 * starts with pi's default keys for what could not be read. The file is read in
 * src/config/piKeybindings.ts.
 */
export function parsePiKeybindings(raw: string, path: string): { bindings: PiBindings; warning?: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.replace(/^\uFEFF/, ""));
  } catch (err) {
    return { bindings: {}, warning: warn(path, [`is not JSON (${(err as Error).message})`]) };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return { bindings: {}, warning: warn(path, ["is not a JSON object of id → keys"]) };
  const source = parsed as Record<string, unknown>;
  const problems: string[] = [];
  const bindings: PiBindings = {};
  for (const [name, value] of Object.entries(source)) {
    const id: string = PI_LEGACY_NAMES[name] ?? name;
    if (!isPiId(id)) continue;
    // pi: an old name set beside its new one gives way to it.
    if (id !== name && Object.hasOwn(source, id)) continue;
    const keys = Array.isArray(value) ? value : [value];
    if (!keys.every((k): k is string => typeof k === "string" && PI_KEY.test(k))) {
      problems.push(`${id}: ${JSON.stringify(value)} is not a key or a list of keys pi takes; pi's default stays`);
      continue;
    }
    const usable: string[] = [];
    for (const k of keys) {
      try {
        parseBinding(k);
        usable.push(k);
      } catch {
        problems.push(`${id}: "${k}" is a key pi-sessions cannot read; left out`);
      }
    }
    bindings[id as PiId] = usable;
  }
  return problems.length ? { bindings, warning: warn(path, problems) } : { bindings };
}

/** One line: the file, the first problem, and how many more. */
export function warn(path: string, problems: string[]): string {
  const more = problems.length > 1 ? ` (+${problems.length - 1} more)` : "";
  return truncateToWidth(sanitizeLine(`pi keybindings ${path}: ${problems[0]}${more}`), 300);
}

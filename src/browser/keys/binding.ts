import type { Key } from "./key.js";
import type { PiId } from "./piKeys.js";

/** A parsed key binding such as "ctrl+s", "shift+tab", "pageup" or "G". */
export interface Binding {
  /** A named key ("up", "tab", …) or a single printable character. */
  key: string;
  ctrl: boolean;
  meta: boolean;
  shift: boolean;
  /** super+ (pi's syntax; only a terminal with the kitty keyboard protocol reports it). Absent: off. */
  super?: boolean;
  /** The pi id this key comes from (pi's default or the user's keybindings.json): the help names it. */
  pi?: PiId;
}

type KeyFlag =
  | "upArrow"
  | "downArrow"
  | "leftArrow"
  | "rightArrow"
  | "pageUp"
  | "pageDown"
  | "home"
  | "end"
  | "return"
  | "escape"
  | "tab"
  | "backspace"
  | "delete";

const NAMED: Record<string, KeyFlag> = {
  up: "upArrow",
  down: "downArrow",
  left: "leftArrow",
  right: "rightArrow",
  pageup: "pageUp",
  pagedown: "pageDown",
  home: "home",
  end: "end",
  enter: "return",
  return: "return",
  escape: "escape",
  esc: "escape",
  tab: "tab",
  backspace: "backspace",
  delete: "delete",
};

const ALIASES: Record<string, string> = { space: " ", esc: "escape", return: "enter" };

/**
 * Parse "ctrl+s" style strings, this project's and pi's (keybindings.json: "shift+ctrl+o",
 * "pageUp", "super+k"; "shift+l" is the capital L a terminal sends, as pi-tui takes it).
 * Throws on an empty or unknown key so a bad user map fails loudly.
 */
export function parseBinding(spec: string): Binding {
  // "+" itself is a valid key: "ctrl++" or "+".
  const parts = spec === "+" ? ["+"] : spec.endsWith("++") ? [...spec.slice(0, -2).split("+"), "+"] : spec.split("+");
  const b: Binding = { key: "", ctrl: false, meta: false, shift: false };
  for (let i = 0; i < parts.length - 1; i++) {
    const mod = parts[i].toLowerCase();
    if (mod === "ctrl" || mod === "control") b.ctrl = true;
    else if (mod === "meta" || mod === "alt" || mod === "option") b.meta = true;
    else if (mod === "shift") b.shift = true;
    else if (mod === "super") b.super = true;
    else throw new Error(`unknown modifier "${parts[i]}" in key "${spec}"`);
  }
  const last = parts[parts.length - 1];
  if (!last) throw new Error(`empty key in "${spec}"`);
  if (last.length === 1) {
    b.key = last;
    if (/[A-Z]/.test(last))
      b.shift = true; // "G" is shift+g, as terminals send it
    // "shift+l" is "L", as a terminal sends it (pi-tui reads an uppercase letter as shift+letter).
    else if (b.shift && !b.ctrl && !b.meta && /[a-z]/.test(last)) b.key = last.toUpperCase();
  } else {
    const name = ALIASES[last.toLowerCase()] ?? last.toLowerCase();
    if (name !== " " && !(name in NAMED)) throw new Error(`unknown key "${last}" in "${spec}"`);
    b.key = name;
  }
  return b;
}

/** True when the binding is a plain printable character (typed text in a text field). */
export function isPrintable(b: Binding): boolean {
  return b.key.length === 1 && !b.ctrl && !b.meta;
}

/** Does ink's (input, key) pair match the binding? */
export function matches(b: Binding, input: string, key: Key): boolean {
  if (!!key.super !== !!b.super) return false;
  const flag = NAMED[b.key];
  if (flag) {
    // Ink 6 reported Backspace (\x7f) as `delete` and Ink 8 as `backspace`: "backspace" means either.
    const hit = b.key === "backspace" ? key.backspace || key.delete : key[flag];
    if (!hit) return false;
    // ink sets meta on a bare Escape; ignore it there.
    const metaOk = b.key === "escape" ? true : key.meta === b.meta;
    return metaOk && key.ctrl === b.ctrl && key.shift === b.shift;
  }
  if (key.ctrl !== b.ctrl || key.meta !== b.meta) return false;
  // Ctrl+Shift+O is not Ctrl+O (a terminal with the kitty protocol or modifyOtherKeys tells them apart).
  if (b.ctrl) return key.shift === b.shift && input.toLowerCase() === b.key.toLowerCase();
  // Escape sequences that ink did not name arrive with empty input; never match them.
  return input === b.key;
}

const SHOW: Record<string, string> = {
  up: "↑",
  down: "↓",
  left: "←",
  right: "→",
  pageup: "PgUp",
  pagedown: "PgDn",
  home: "Home",
  end: "End",
  enter: "Enter",
  escape: "Esc",
  tab: "Tab",
  backspace: "Backspace",
  delete: "Del",
  " ": "Space",
};

/** Short human form for hints and help: "Ctrl+S", "Shift+Tab", "↑", "G". */
export function formatBinding(b: Binding): string {
  const mods = [
    b.super ? "Super+" : "",
    b.ctrl ? "Ctrl+" : "",
    b.meta ? "Alt+" : "",
    b.shift && (b.key.length !== 1 || b.ctrl || b.meta) ? "Shift+" : "",
  ].join("");
  const k = SHOW[b.key] ?? (b.ctrl || b.meta ? b.key.toUpperCase() : b.key);
  return mods + k;
}

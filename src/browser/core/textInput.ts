import { sanitizeLine } from "../../text/sanitize.js";

/*
 * A single-line text field as pure functions. The cursor counts code points so
 * an emoji is never split. Rendering lives in SearchBar.
 */

export interface TextInput {
  value: string;
  cursor: number;
}

export const EMPTY_INPUT: TextInput = { value: "", cursor: 0 };

const cps = (s: string) => Array.from(s);

/** Insert typed or pasted text; control characters and newlines never get in. */
export function insertText(t: TextInput, text: string): TextInput {
  const clean = sanitizeLine(text);
  if (!clean) return t;
  const chars = cps(t.value);
  const add = cps(clean);
  chars.splice(t.cursor, 0, ...add);
  return { value: chars.join(""), cursor: t.cursor + add.length };
}

export function deleteBack(t: TextInput): TextInput {
  if (t.cursor === 0) return t;
  const chars = cps(t.value);
  chars.splice(t.cursor - 1, 1);
  return { value: chars.join(""), cursor: t.cursor - 1 };
}

/** Ctrl+W: delete back over spaces, then over the word before them. */
export function deleteWordBack(t: TextInput): TextInput {
  const chars = cps(t.value);
  let i = t.cursor;
  while (i > 0 && /\s/.test(chars[i - 1])) i--;
  while (i > 0 && !/\s/.test(chars[i - 1])) i--;
  if (i === t.cursor) return t;
  chars.splice(i, t.cursor - i);
  return { value: chars.join(""), cursor: i };
}

export function clearInput(): TextInput {
  return EMPTY_INPUT;
}

export function moveCursor(t: TextInput, to: "left" | "right" | "home" | "end"): TextInput {
  const len = cps(t.value).length;
  const cursor =
    to === "left" ? Math.max(0, t.cursor - 1) : to === "right" ? Math.min(len, t.cursor + 1) : to === "home" ? 0 : len;
  return cursor === t.cursor ? t : { ...t, cursor };
}

/** The field edits the input.* commands make (one table for every text field). */
const EDITS: Record<string, (t: TextInput) => TextInput> = {
  "input.deleteBack": deleteBack,
  "input.deleteWord": deleteWordBack,
  "input.clear": clearInput,
  "input.left": (t) => moveCursor(t, "left"),
  "input.right": (t) => moveCursor(t, "right"),
  "input.home": (t) => moveCursor(t, "home"),
  "input.end": (t) => moveCursor(t, "end"),
};

/** `t` after the edit command `c`, or undefined when `c` does not edit a field. */
export function editByCommand(t: TextInput, c: string): TextInput | undefined {
  return EDITS[c]?.(t);
}

/**
 * A paste into a one-line field: line breaks become spaces (as pi's rename does), so a
 * paste never submits; insertText strips the other control characters.
 */
export function pasteText(t: TextInput, pasted: string): TextInput {
  return insertText(t, pasted.replace(/\r\n|[\r\n]/g, " "));
}

import type { Key } from "ink";
import { inkKey } from "./inkKey.js";


/**
 * When the app is busy, ink hands several typed keys over as one input ("jjj", "  ").
 * Outside text fields each character is a command, so split the burst into the keys a
 * terminal would have sent one by one. Returns null for anything that is not such a burst.
 */
export function splitBurst(input: string, key: Key): { input: string; key: Key }[] | null {
  if (input.length < 2 || key.ctrl || key.meta) return null;
  const chars = [...input];
  if (chars.length < 2) return null; // one wide character (emoji), not a burst
  return chars.map((ch) => {
    if (ch === "\r") return { input: "\r", key: inkKey({ return: true }) };
    if (ch === "\t") return { input: "", key: inkKey({ tab: true }) };
    if (ch === "\x7f") return { input: "", key: inkKey({ delete: true }) };
    return { input: ch, key: inkKey({ shift: ch >= "A" && ch <= "Z" }) };
  });
}

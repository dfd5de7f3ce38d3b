import { type Tone, theme } from "../theme/theme.js";
import { SLOT_GLYPHS } from "./chartRows.js";

/** One colour per model slot (chartRows.ts); the last one is also "other models". */
const SLOT_COLORS = ["cyan", "magenta", "yellow", "green", "blue", "red"] as const;

/** Whether the theme has colours (NO_COLOR and "theme": "none" turn them off). */
export const COLORS_ON = theme.border.color !== undefined;

export function slotTone(slot: number, color: boolean): Tone {
  return color ? { color: SLOT_COLORS[slot % SLOT_COLORS.length] } : {};
}

/** Without colours each model fills its bar with its own glyph, named in the legend. */
export function slotGlyphs(color: boolean): readonly string[] | undefined {
  return color ? undefined : SLOT_GLYPHS;
}

/** The legend's mark for a slot: a coloured square, or the slot's glyph. */
export function slotMark(slot: number, color: boolean): string {
  return color ? "■" : SLOT_GLYPHS[slot];
}

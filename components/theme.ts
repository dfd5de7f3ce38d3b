/*
 * Every colour of the UI in one place. NO_COLOR (any non-empty value, per
 * no-color.org) turns colours off; bold and inverse are not colours and stay.
 * Meaning never rests on colour alone: rows also carry textual markers.
 */

export interface Tone {
  color?: string;
  dimColor?: boolean;
  bold?: boolean;
  inverse?: boolean;
}

const COLORS = {
  accent: { color: "cyan" },
  title: { color: "cyan", bold: true },
  muted: { dimColor: true },
  selected: { color: "cyan", bold: true },
  named: { color: "yellow", bold: true },
  provisional: { dimColor: true },
  unreadable: { color: "red" },
  error: { color: "red" },
  warning: { color: "yellow" },
  key: { color: "green", bold: true },
  user: { color: "blue", bold: true },
  assistant: { color: "magenta", bold: true },
  tool: { color: "gray" },
  border: { color: "gray" },
} satisfies Record<string, Tone>;

export type ToneName = keyof typeof COLORS;

export function colorsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !env.NO_COLOR;
}

function withoutColor(t: Tone): Tone {
  // dimColor is an attribute, but NO_COLOR users usually want plain text; keep bold only.
  return t.bold ? { bold: true } : {};
}

export function makeTheme(enabled: boolean): Record<ToneName, Tone> {
  const out = {} as Record<ToneName, Tone>;
  for (const [k, v] of Object.entries(COLORS) as [ToneName, Tone][]) out[k] = enabled ? v : withoutColor(v);
  return out;
}

/** Text props per role: `<Text {...theme.named}>`. Decided once at startup. */
export const theme = makeTheme(colorsEnabled());

/** Border colour for Box props (undefined without colours). */
export const borderColor = theme.border.color;

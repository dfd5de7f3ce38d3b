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
  underline?: boolean;
}

const COLORS = {
  accent: { color: "cyan" },
  title: { color: "cyan", bold: true },
  muted: { dimColor: true },
  /** The selection bar: inverse, so it shows with NO_COLOR too (with the ❯ marker). */
  selected: { color: "cyan", bold: true, inverse: true },
  /** Border and title of the pane keys go to. */
  focus: { color: "cyan" },
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
  /** What a search matched, inside a row or a snippet: keeps the row's colour. */
  match: { underline: true },
} satisfies Record<string, Tone>;

export type ToneName = keyof typeof COLORS;

/** For light backgrounds (config "theme": "light"): cyan and yellow wash out there. */
const LIGHT: Partial<Record<ToneName, Tone>> = {
  accent: { color: "blue" },
  title: { color: "blue", bold: true },
  selected: { color: "blue", bold: true, inverse: true },
  focus: { color: "blue" },
  named: { color: "magenta", bold: true },
  warning: { color: "magenta" },
  key: { color: "green", bold: true },
  tool: { color: "blackBright" },
  border: { color: "blackBright" },
};

export function colorsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !env.NO_COLOR;
}

function withoutColor(t: Tone): Tone {
  // dimColor is an attribute, but NO_COLOR users usually want plain text; keep bold,
  // inverse (the selection bar) and underline (a search match), which are not colours.
  return {
    ...(t.bold ? { bold: true } : {}),
    ...(t.inverse ? { inverse: true } : {}),
    ...(t.underline ? { underline: true } : {}),
  };
}

export function makeTheme(enabled: boolean, light = false): Record<ToneName, Tone> {
  const out = {} as Record<ToneName, Tone>;
  for (const [k, v] of Object.entries(COLORS) as [ToneName, Tone][]) {
    const tone = light ? (LIGHT[k] ?? v) : v;
    out[k] = enabled ? tone : withoutColor(tone);
  }
  return out;
}

/** Text props per role: `<Text {...theme.named}>`. Decided once at startup (PI_SESSIONS_THEME is set from the config). */
export const theme = makeTheme(
  colorsEnabled() && process.env.PI_SESSIONS_THEME !== "none",
  process.env.PI_SESSIONS_THEME === "light",
);

/** Border colour for Box props (undefined without colours). */
export const borderColor = theme.border.color;

// A headless xterm's screen as an SVG picture: every cell's character with its colours,
// bold, dim and inverse, on a dark or light terminal background. Used by
// scripts/screenshots.mjs; pure apart from reading the terminal's buffer.

const DARK = {
  bg: "#1e1f29",
  fg: "#e6e6e6",
  ansi: [
    "#21222c",
    "#ff5555",
    "#50fa7b",
    "#f1fa8c",
    "#6b8cff",
    "#ff79c6",
    "#8be9fd",
    "#d0d0d0",
    "#6272a4",
    "#ff6e6e",
    "#69ff94",
    "#ffffa5",
    "#9aa9ff",
    "#ff92df",
    "#a4ffff",
    "#ffffff",
  ],
};
const LIGHT = {
  bg: "#fafafa",
  fg: "#202020",
  ansi: [
    "#000000",
    "#c91b00",
    "#00a600",
    "#a68b00",
    "#0035c2",
    "#b000b0",
    "#00868b",
    "#bfbfbf",
    "#686868",
    "#e12e20",
    "#00b800",
    "#b8a000",
    "#2c5cff",
    "#d030d0",
    "#00a0a8",
    "#ffffff",
  ],
};

function palette256(n, base) {
  if (n < 16) return base.ansi[n];
  if (n < 232) {
    const i = n - 16;
    const v = (x) => (x === 0 ? 0 : 55 + x * 40);
    const r = v(Math.floor(i / 36));
    const g = v(Math.floor(i / 6) % 6);
    const b = v(i % 6);
    return `rgb(${r},${g},${b})`;
  }
  const l = 8 + (n - 232) * 10;
  return `rgb(${l},${l},${l})`;
}

function colour(mode, value, scheme) {
  if (mode === "palette") return palette256(value, scheme);
  if (mode === "rgb") return `rgb(${(value >> 16) & 255},${(value >> 8) & 255},${value & 255})`;
  return undefined;
}

const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The fonts a screenshot needs beyond the monospace one, and the Debian packages that have
 * them: without them CJK and emoji are drawn as empty boxes. The emoji font is not named in
 * the SVG: it has digits too, and named it takes them (narrow, spaced apart); fontconfig
 * falls back to it for emoji alone.
 */
export const FONT_PACKAGES = [
  ["Noto Sans Mono CJK SC", "fonts-noto-cjk"],
  ["Noto Color Emoji", "fonts-noto-color-emoji"],
];

/** The packages of FONT_PACKAGES whose font is not among `families` (what `fc-list : family` prints). */
export function missingFontPackages(families) {
  return FONT_PACKAGES.filter(([family]) => !families.includes(family)).map(([, pkg]) => pkg);
}

/** The visible screen of `term` (an @xterm/headless Terminal) as an SVG document. */
export function terminalSvg(
  term,
  { light = false, cellW = 9, cellH = 18, font = "DejaVu Sans Mono, Noto Sans Mono CJK SC, monospace" } = {},
) {
  const scheme = light ? LIGHT : DARK;
  const buf = term.buffer.active;
  const cell = buf.getNullCell();
  const rects = [];
  const texts = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buf.getLine(buf.viewportY + y);
    if (!line) continue;
    for (let x = 0; x < term.cols; x++) {
      line.getCell(x, cell);
      const w = cell.getWidth();
      if (w === 0) continue; // the second half of a wide character
      const ch = cell.getChars() || " ";
      let fg = cell.isFgDefault()
        ? scheme.fg
        : colour(cell.isFgPalette() ? "palette" : "rgb", cell.getFgColor(), scheme);
      let bg = cell.isBgDefault()
        ? undefined
        : colour(cell.isBgPalette() ? "palette" : "rgb", cell.getBgColor(), scheme);
      if (cell.isInverse()) [fg, bg] = [bg ?? scheme.bg, fg ?? scheme.fg];
      if (bg)
        rects.push(`<rect x="${x * cellW}" y="${y * cellH}" width="${w * cellW}" height="${cellH}" fill="${bg}"/>`);
      if (ch === " ") continue;
      const attrs = [`x="${x * cellW}"`, `y="${y * cellH + cellH * 0.78}"`, `fill="${fg}"`];
      if (cell.isBold()) attrs.push(`font-weight="bold"`);
      if (cell.isDim()) attrs.push(`opacity="0.6"`);
      if (cell.isUnderline()) attrs.push(`text-decoration="underline"`);
      if (w === 2) attrs.push(`textLength="${2 * cellW}"`);
      texts.push(`<text ${attrs.join(" ")}>${esc(ch)}</text>`);
    }
  }
  const W = term.cols * cellW;
  const H = term.rows * cellH;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`,
    `<rect width="100%" height="100%" fill="${scheme.bg}"/>`,
    ...rects,
    `<g font-family="${font}" font-size="${Math.round(cellH * 0.8)}" xml:space="preserve">`,
    ...texts,
    "</g></svg>",
  ].join("\n");
}

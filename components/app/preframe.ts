import { padToWidth, sanitizeLine, truncateToWidth } from "../../src/text/sanitize.js";
import { footerText, hintsFor } from "../footer/hints.js";
import { headerText } from "../header/headerText.js";
import { type Keymap, keysLabel } from "../../src/browser/keys/keymap.js";
import { computeLayout } from "../layout/layout.js";
import { topBorder } from "../layout/topBorder.js";
import { ageOfSort, formatHeader, formatRow, listFrameText, rowTone } from "../list/rowFormat.js";
import type { AppState } from "../../src/browser/app/appState.js";
import { theme, type Tone } from "../theme/theme.js";

/*
 * The browser's first screen written straight to the terminal, before Ink and React have
 * loaded (they take ~70 ms more): the header, the list's frame with its first rows, an empty
 * preview frame and the key hints, laid out with the same pure functions the components
 * use. Ink's first frame then draws over it. Only the list screen, from the same state Ink
 * starts with, so a key pressed now acts on the rows on screen.
 */

const FG: Record<string, number> = {
  black: 30,
  red: 31,
  green: 32,
  yellow: 33,
  blue: 34,
  magenta: 35,
  cyan: 36,
  white: 37,
  gray: 90,
  blackBright: 90,
};

/** `text` in a tone's SGR attributes (nothing when the tone has none). */
export function styled(text: string, tone: Tone | undefined): string {
  if (!tone) return text;
  const codes: number[] = [];
  if (tone.color && FG[tone.color]) codes.push(FG[tone.color]);
  if (tone.bold) codes.push(1);
  if (tone.dimColor) codes.push(2);
  if (tone.inverse) codes.push(7);
  return codes.length ? `\x1b[${codes.join(";")}m${text}\x1b[0m` : text;
}

function frameLines(
  title: string,
  info: string,
  focused: boolean,
  width: number,
  height: number,
  body: string[],
): string[] {
  const tone = focused ? theme.focus : theme.border;
  const inner = Math.max(0, width - 2);
  const b = topBorder(title, info, width);
  const out = [
    styled(b.left, tone) +
      styled(b.title, focused ? theme.title : theme.muted) +
      styled(b.fill, tone) +
      styled(b.info, theme.muted) +
      styled(b.right, tone),
  ];
  for (let i = 0; i < height - 2; i++) out.push(styled("│", tone) + (body[i] ?? " ".repeat(inner)) + styled("│", tone));
  out.push(styled(`╰${"─".repeat(inner)}╯`, tone));
  return out;
}

/** The whole first screen as text to write at the top of the alternate screen, or undefined when the list screen is not what Ink would draw first. */
export function preframe(
  s: AppState,
  o: { columns: number; rows: number; storeLabel: string; keymap: Keymap; now: number },
): string | undefined {
  const layout = computeLayout({ columns: o.columns, rows: o.rows, previewShare: s.previewShare });
  if (layout.tooSmall || s.rows.length === 0 || s.stack.length > 0 || s.search.value) return undefined;
  const { list, preview: pv } = layout;
  const innerW = list.inner.width;
  const rowsH = Math.max(0, list.height - 3);
  const body = [styled(formatHeader(innerW, s.scope !== "cwd", ageOfSort(s.sort)), theme.muted)];
  for (let i = 0; i < Math.min(rowsH, s.rows.length); i++) {
    const row = s.rows[i];
    const selected = i === s.cursor;
    const tone = rowTone(row, selected);
    body.push(
      styled(
        formatRow(row, {
          width: innerW,
          selected,
          showCwd: s.scope !== "cwd",
          now: o.now,
          open: row.session.path === s.openInPi,
          ageOf: ageOfSort(s.sort),
        }),
        tone ? theme[tone] : undefined,
      ),
    );
  }
  const frame = listFrameText(s.scope, s.cursor, s.rows.length);
  const listLines = frameLines(frame.title, frame.info, true, list.width, list.height, body);
  // A preview given no room (previewShare 0) is not drawn.
  const pvLines =
    pv.width > 0 && pv.height > 0
      ? frameLines("Preview", "", false, pv.width, pv.height, [
          styled(padToWidth(" loading…", pv.width - 2), theme.muted),
        ])
      : [];
  const bodyLines =
    pv.position === "right" ? listLines.map((l, i) => l + (pvLines[i] ?? "")) : [...listLines, ...pvLines];
  const header = styled(
    truncateToWidth(
      headerText(
        {
          storeLabel: sanitizeLine(o.storeLabel),
          scope: s.scope,
          shown: s.rows.length,
          total: s.scopeTotal,
          sort: s.sort,
          scan: s.scan,
          marked: 0,
          skippedKey: keysLabel(o.keymap, "skipped.open", 1),
          hosts: s.hosts,
        },
        o.columns,
      ),
      o.columns,
    ),
    theme.title,
  );
  const footer = styled(footerText(hintsFor("list", s.print), o.keymap, o.columns, "list"), theme.muted);
  const lines = [header, ...bodyLines, "", footer].slice(0, o.rows);
  // Every line from column 1, erased to its end; no newline after the last one (it would
  // scroll); the cursor back home, where Ink starts its first frame.
  return "\x1b[H" + lines.map((l) => `${l}\x1b[K`).join("\r\n") + "\x1b[H";
}

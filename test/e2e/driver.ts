import { existsSync } from "node:fs";
import { type Command, COMMANDS, type CommandId } from "../../src/browser/keys/commands.js";
import { PI_DEFAULT_KEYS } from "../../src/browser/keys/piKeys.js";
import { KEY, type RunningApp } from "./pty.js";

/*
 * The e2e driver (lazygit's way): tests press keys by command name, so a test reads as what
 * the user does and follows the key registry when a key moves; and they wait for a screen
 * condition with one timeout and the screen in the failure, never a hand-rolled retry loop.
 */

const NAMED: Record<string, string> = {
  enter: KEY.enter,
  escape: KEY.escape,
  up: KEY.up,
  down: KEY.down,
  left: KEY.left,
  right: KEY.right,
  tab: "\t",
  space: " ",
  backspace: "\x7f",
  delete: "\x1b[3~",
  home: "\x1b[H",
  end: "\x1b[F",
  pageup: "\x1b[5~",
  pagedown: "\x1b[6~",
};

/** Keys a terminal sends only with the kitty protocol or modifyOtherKeys (here in the CSI-u form). */
const CHORDS: Record<string, string> = {
  "ctrl+backspace": "\x1b[127;5u",
  "shift+ctrl+o": "\x1b[111;6u",
  "ctrl+left": "\x1b[1;5D",
  "ctrl+right": "\x1b[1;5C",
  "alt+left": "\x1b[1;3D",
  "alt+right": "\x1b[1;3C",
};

/** What a terminal sends for a key as the registry or pi writes it ("ctrl+d", "enter", "G", "shift+l", "pageUp"). */
export function keySequence(spec: string): string {
  const ctrl = /^ctrl\+(.)$/.exec(spec);
  if (ctrl) return KEY.ctrl(ctrl[1]);
  const shifted = /^shift\+([a-z])$/.exec(spec);
  if (shifted) return shifted[1].toUpperCase();
  if (CHORDS[spec]) return CHORDS[spec];
  if (NAMED[spec.toLowerCase()]) return NAMED[spec.toLowerCase()];
  if ([...spec].length === 1) return spec;
  throw new Error(`the driver cannot type the key "${spec}"`);
}

/** A command's default keys as the key map has them: pi's first, then this project's own. */
export function defaultKeys(id: CommandId): string[] {
  return [...((COMMANDS[id] as Command).pi ?? []).flatMap((p) => PI_DEFAULT_KEYS[p]), ...COMMANDS[id].keys];
}

/** Presses the first default key of a command (`list.down`, `session.delete`, `confirm.yes`). */
export async function pressCommand(app: RunningApp, ...ids: CommandId[]): Promise<void> {
  for (const id of ids) {
    const key = defaultKeys(id).find((k) => {
      try {
        keySequence(k);
        return true;
      } catch {
        return false;
      }
    });
    if (!key) throw new Error(`command ${id} has no key the driver can type`);
    await app.press(keySequence(key));
  }
}

/** The line of the screen with the selection marker. */
export const selectedLine = (screen: string): string => screen.split("\n").find((l) => l.includes("❯")) ?? "";

/** The list's position counter in its border ("12 of 30"): which row the cursor is on. */
export function listPosition(screen: string): string | undefined {
  const border = screen.split("\n").find((l) => l.includes("Sessions ·"));
  return border ? /(\d+) of \d+/.exec(border)?.[1] : undefined;
}

/**
 * Moves down (list.down) until the selected row shows `text`; fails with the screen when the
 * rows run out. Each step waits for the border's counter to move, not for the selected line
 * to change: a row or the preview redrawn under the cursor also changes that line, and a
 * second press would land one row too far.
 */
export async function selectRow(app: RunningApp, text: string, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    const screen = app.screen();
    if (selectedLine(screen).includes(text)) return;
    const at = listPosition(screen);
    const next = at === undefined ? undefined : String(Number(at) + 1);
    await pressCommand(app, "list.down");
    // At the last row the counter stays: the row is not there. Waiting for exactly the next
    // row (not any change) keeps one press per step.
    const moved = await app
      .waitFor((x) => (next === undefined ? listPosition(x) !== at : listPosition(x) === next), 1500)
      .then(
        () => true,
        () => false,
      );
    if (!moved) break;
  }
  throw new Error(`no row "${text}" below the selection:\n${app.screen()}`);
}

/** Waits until `path` exists and `done` holds for it (a file another process writes). */
export async function waitForFile(path: string, done: () => boolean = () => true, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(existsSync(path) && done())) {
    if (Date.now() > until) throw new Error(`${path} did not appear (or was not complete) in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

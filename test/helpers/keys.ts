import type { Key } from "ink";
import { inkKey } from "../../src/browser/keys/inkKey.js";

/** An ink Key with every flag off, plus the given ones. */
export const key = inkKey;

/** (input, key) pairs as Ink reports them (see ink-notes §3). */
export const K = {
  up: ["", key({ upArrow: true })],
  down: ["", key({ downArrow: true })],
  left: ["", key({ leftArrow: true })],
  right: ["", key({ rightArrow: true })],
  pageUp: ["", key({ pageUp: true })],
  pageDown: ["", key({ pageDown: true })],
  home: ["", key({ home: true })],
  end: ["", key({ end: true })],
  enter: ["\r", key({ return: true })],
  tab: ["", key({ tab: true })],
  shiftTab: ["", key({ tab: true, shift: true })],
  escape: ["", key({ escape: true, meta: true })],
  backspace: ["", key({ delete: true })],
  ctrlH: ["", key({ backspace: true })],
  altBackspace: ["", key({ delete: true, meta: true })],
  ctrlC: ["c", key({ ctrl: true })],
  ctrlS: ["s", key({ ctrl: true })],
  ctrlU: ["u", key({ ctrl: true })],
  ctrlW: ["w", key({ ctrl: true })],
  ctrlA: ["a", key({ ctrl: true })],
  ctrlE: ["e", key({ ctrl: true })],
  altJ: ["j", key({ meta: true })],
  char: (c: string): [string, Key] => [c, key({ shift: /[A-Z]/.test(c) })],
} as const;

/** Raw bytes a terminal sends, for stdin.write in component tests. */
export const RAW = {
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  pageUp: "\x1b[5~",
  pageDown: "\x1b[6~",
  home: "\x1b[H",
  end: "\x1b[F",
  enter: "\r",
  tab: "\t",
  shiftTab: "\x1b[Z",
  shiftUp: "\x1b[1;2A",
  shiftDown: "\x1b[1;2B",
  shiftPageUp: "\x1b[5;2~",
  shiftPageDown: "\x1b[6;2~",
  shiftHome: "\x1b[1;2H",
  shiftEnd: "\x1b[1;2F",
  escape: "\x1b",
  backspace: "\x7f",
  ctrlC: "\x03",
  ctrlS: "\x13",
  ctrlU: "\x15",
  ctrlW: "\x17",
} as const;

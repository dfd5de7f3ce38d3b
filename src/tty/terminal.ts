import { closeSync, openSync, writeSync } from "node:fs";
import tty from "node:tty";
import { MOUSE_OFF, MOUSE_ON } from "../browser/keys/sgrMouse.js";

// Alternate screen, cursor hidden, bracketed paste on (a paste arrives marked, as text).
const ENTER = "\x1b[?1049h\x1b[?25l\x1b[H\x1b[?2004h";
// The alternate screen is cleared (ESC[2J) before it is left: tmux before 3.4 (issue 3510)
// reflows what is left there to the width the alternate screen was entered at when the
// window has grown since, and the lines that wrap land on the main screen above the prompt
// and in its scrollback (a widened window left ~14 list rows over the shell). Empty rows
// (cleared with the default colours: ESC[0m first) don't wrap. Only the alternate screen
// is cleared: the main screen comes back untouched.
const LEAVE = "\x1b[?2004l\x1b[?25h\x1b[0m\x1b[2J\x1b[?1049l";

export interface TerminalOut {
  stream: NodeJS.WriteStream;
  fd: number;
  close(): void;
}

/**
 * Where the UI is drawn. Normally stdout; in --print mode stdout carries the
 * answer, so the UI goes to /dev/tty, else to stderr when that is a terminal.
 */
export function openTerminalOut(print: boolean): TerminalOut | null {
  if (!print && process.stdout.isTTY) return { stream: process.stdout, fd: 1, close() {} };
  try {
    const fd = openSync("/dev/tty", "w");
    const stream = new tty.WriteStream(fd) as unknown as NodeJS.WriteStream & { _refreshSize?(): void };
    // Node refreshes the size of process.stdout on SIGWINCH, not of our own stream.
    const onWinch = () => stream._refreshSize?.();
    process.on("SIGWINCH", onWinch);
    return {
      stream,
      fd,
      close() {
        process.off("SIGWINCH", onWinch);
        stream.destroy();
        try {
          closeSync(fd);
        } catch {
          // destroy() may already have closed it
        }
      },
    };
  } catch {
    if (process.stderr.isTTY) return { stream: process.stderr, fd: 2, close() {} };
    return null;
  }
}

/**
 * Switch to the alternate screen and hide the cursor (and, `mouse`, report the mouse).
 * The returned restore is idempotent and also runs from process 'exit', written
 * synchronously, so a crash or a signal never leaves the terminal in the alternate
 * screen or reporting the mouse to a shell.
 */
export function enterFullScreen(fd: number, opts: { mouse?: boolean } = {}): () => void {
  let done = false;
  const restore = () => {
    if (done) return;
    done = true;
    process.off("exit", restore);
    try {
      writeSync(fd, (opts.mouse ? MOUSE_OFF : "") + LEAVE);
    } catch {
      // the terminal is gone; nothing to restore
    }
  };
  writeSync(fd, ENTER + (opts.mouse ? MOUSE_ON : ""));
  process.on("exit", restore);
  return restore;
}

/**
 * Raw mode from before the first frame. Ink turns it on in an effect that runs after its
 * first render: a key pressed as the first frame appears reached a terminal still in
 * cooked mode, which echoed it over the screen and turned Enter into a line feed (seen
 * in a pty: every key sent within 20 ms of the first frame). releaseStdin undoes it.
 */
export function holdKeyboard(): void {
  if (process.stdin.isTTY) process.stdin.setRawMode(true);
}

/** Give the keyboard back in cooked mode, so a child (pi) or the shell reads it normally. */
export function releaseStdin(): void {
  const stdin = process.stdin;
  if (stdin.isTTY) stdin.setRawMode(false);
  stdin.pause();
}

/** Clear the screen and put the cursor home. */
export const CLEAR_SCREEN = "\x1b[2J\x1b[H";
/** Synchronized output (mode 2026) begins: a terminal that knows it shows the update at once. */
export const SYNC_START = "\x1b[?2026h";

/**
 * Calls `repaint` once a burst of resizes of `stream` has been quiet for `quietMs`.
 * Ink draws the frame after a resize against what it believes is on the screen, but the
 * terminal has cut or wrapped the old rows meanwhile (and Ink's own resize handler draws
 * the old layout at the new width first): across the side-by-side / stacked threshold
 * that left pieces of the old frame until something redrew every row.
 */
export function afterResize(stream: NodeJS.WriteStream, repaint: () => void, quietMs = 50): () => void {
  let timer: NodeJS.Timeout | undefined;
  const onResize = () => {
    clearTimeout(timer);
    timer = setTimeout(repaint, quietMs);
  };
  stream.on("resize", onResize);
  return () => {
    clearTimeout(timer);
    stream.off("resize", onResize);
  };
}

/**
 * Ctrl+Z as a shell user expects it (lazygit does the same): the terminal given back as it
 * was (main screen, cursor, cooked mode, no mouse or paste reports), the process stopped
 * until `fg`, then full screen again and `redraw` draws every row. Where nothing stops it
 * (no job control: the kernel ignores the signal), the screen comes back at once.
 */
export function suspendToShell(fd: number, opts: { mouse?: boolean; redraw(): void }): void {
  const leave = () => {
    try {
      writeSync(fd, (opts.mouse ? MOUSE_OFF : "") + LEAVE);
    } catch {
      // the terminal is gone: nothing to give back
    }
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
  };
  const back = () => {
    clearTimeout(fallback);
    process.off("SIGCONT", back);
    if (process.stdin.isTTY) process.stdin.setRawMode(true);
    try {
      writeSync(fd, ENTER + (opts.mouse ? MOUSE_ON : ""));
    } catch {
      return;
    }
    opts.redraw();
  };
  leave();
  process.on("SIGCONT", back);
  // A stopped process runs no timers: this fires only if the stop did not happen.
  const fallback = setTimeout(back, 100);
  process.kill(process.pid, "SIGTSTP");
}

import unicode11 from "@xterm/addon-unicode11";
import xterm from "@xterm/headless";
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as pty from "node-pty";
import { afterEach } from "vitest";
import { RAW } from "../helpers/keys.js";
import { frameSplitter } from "./frames.js";

const { Terminal } = xterm;

export const ROOT = join(import.meta.dirname, "..", "..");
/** The program users run (the package `bin`): the bundle `npm run build` makes. */
export const CLI = join(ROOT, "dist", "bundle", "cli.js");

/** Key sequences as a terminal sends them. */
export const KEY = {
  ...RAW,
  delete: "\x1b[3~",
  space: " ",
  ctrl: (c: string) => String.fromCharCode(c.toUpperCase().charCodeAt(0) - 64),
} as const;

export interface RunningApp {
  /** The visible screen, one string per row, trailing spaces trimmed. */
  lines(): string[];
  screen(): string;
  /** Everything the program wrote, escapes included. */
  raw(): string;
  bufferType(): "normal" | "alternate";
  /** The screen as it was the moment the program last left the alternate screen (ESC[?1049l). */
  screenAtLeave(): string | undefined;
  /** Every window title the program set (OSC 0 / OSC 2), in order. */
  titles(): string[];
  /** Polls the screen (every 20 ms) until `check` holds; throws with the screen on timeout. */
  waitFor(check: string | RegExp | ((screen: string) => boolean), timeoutMs?: number): Promise<string>;
  /** Sends keys one at a time, letting each be handled (keys are separate input events). */
  press(...keys: string[]): Promise<void>;
  /** Types text (one key per character). */
  type(text: string): Promise<void>;
  /** Writes `key` the moment the program's output (escapes included) first matches `pattern`. */
  pressOnOutput(pattern: RegExp, key: string): Promise<void>;
  resize(cols: number, rows: number): Promise<void>;
  exited: Promise<{ exitCode: number; signal?: number }>;
  kill(signal?: string): void;
  /** Closes the terminal itself (the master side), as closing a terminal window does. */
  hangUp(): void;
}

export interface StartOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  cols?: number;
  rows?: number;
}

const LEAVE_ALT_SCREEN = "\x1b[?1049l";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs the built program in a real pseudo-terminal and mirrors its output into a
 * headless xterm, so tests read the screen a user would see. CI is unset: ink renders
 * only the final frame when it thinks it runs in CI.
 */
export function startApp(args: string[], opts: StartOptions = {}): RunningApp {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm test\` (it builds first) or \`npx tsc -p .\``);
  return startProgram(process.execPath, [CLI, ...args], opts);
}

/** startApp for one test file: every program started is killed after each test. */
export function appStarter(): (...a: Parameters<typeof startApp>) => RunningApp {
  const apps: RunningApp[] = [];
  afterEach(() => apps.splice(0).forEach((a) => a.kill()));
  return (...a) => {
    const app = startApp(...a);
    apps.push(app);
    return app;
  };
}

/** Single-quote a string for sh. */
export const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs a shell command line (`sh -c script`) in the pseudo-terminal, for tests that
 * need a redirect: node-pty merges a child's stdout into the terminal, so
 * `node CLI --print > file` is how a test sees stdout apart from the screen.
 * `$PI_SESSIONS_CLI` and `$NODE` in the script name the built CLI and this node.
 */
export function startShell(script: string, opts: StartOptions = {}): RunningApp {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm test\` (it builds first) or \`npx tsc -p .\``);
  return startProgram("/bin/sh", ["-c", script], {
    ...opts,
    env: { PI_SESSIONS_CLI: CLI, NODE: process.execPath, ...opts.env },
  });
}

/** Any program in the pseudo-terminal, mirrored into a headless xterm. */
export function startProgram(file: string, argv: string[], opts: StartOptions = {}): RunningApp {
  const cols = opts.cols ?? 120;
  const rows = opts.rows ?? 30;
  const term = new Terminal({ cols, rows, allowProposedApi: true });
  // Unicode 11 widths, as today's terminals (and tmux) have them: xterm.js alone counts
  // an emoji as one cell, which puts Ink's incremental updates one column off.
  term.loadAddon(new unicode11.Unicode11Addon());
  term.unicode.activeVersion = "11";
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({
    ...process.env,
    TERM: "xterm-256color",
    CI: undefined,
    NO_COLOR: undefined,
    ...opts.env,
  })) {
    if (v !== undefined) env[k] = v;
  }
  const titles: string[] = [];
  term.onTitleChange((t) => titles.push(t));
  const p = pty.spawn(file, argv, { name: "xterm-256color", cols, rows, cwd: opts.cwd ?? ROOT, env });
  let raw = "";
  let atLeave: string | undefined;
  const triggers: { pattern: RegExp; key: string; done(): void }[] = [];
  // The screen tests read: the last whole frame (see frames.ts), not one half drawn.
  let frame: string[] | undefined;
  const snap = () => (frame = current());
  const split = frameSplitter();
  const feed = (d: string) => {
    for (const piece of split(d)) term.write(piece.text, piece.whole ? snap : undefined);
  };
  p.onData((d) => {
    raw += d;
    // What the program leaves in the alternate screen is read just before it leaves: xterm
    // writes the chunks in order and calls back after each, before parsing the next.
    const leave = d.lastIndexOf(LEAVE_ALT_SCREEN);
    if (leave < 0) feed(d);
    else {
      feed(d.slice(0, leave));
      term.write("", () => (atLeave = current().join("\n")));
      feed(d.slice(leave));
    }
    for (const t of [...triggers]) {
      if (!t.pattern.test(raw)) continue;
      triggers.splice(triggers.indexOf(t), 1);
      p.write(t.key);
      t.done();
    }
  });
  const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) => p.onExit((e) => resolve(e)));
  const flush = () => new Promise<void>((r) => term.write("", r));
  const current = () => {
    const buf = term.buffer.active;
    const out: string[] = [];
    // Only the visible columns: after a shrink xterm keeps the cells past the new width.
    for (let i = 0; i < term.rows; i++)
      out.push(buf.getLine(buf.viewportY + i)?.translateToString(true, 0, term.cols) ?? "");
    return out;
  };
  const lines = () => [...(frame ?? current())];
  const app: RunningApp = {
    lines,
    screen: () => lines().join("\n"),
    raw: () => raw,
    bufferType: () => term.buffer.active.type,
    screenAtLeave: () => atLeave,
    titles: () => [...titles],
    async waitFor(check, timeoutMs = 15_000) {
      const test =
        typeof check === "string"
          ? (s: string) => s.includes(check)
          : check instanceof RegExp
            ? (s: string) => check.test(s)
            : check;
      const t0 = Date.now();
      for (;;) {
        await flush();
        const s = app.screen();
        if (test(s)) return s;
        if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${String(check)}; screen:\n${s}`);
        await sleep(20);
      }
    },
    async press(...keys) {
      for (const k of keys) {
        const before = raw.length;
        p.write(k);
        // A lone Escape is held by the input parser until the next tick; keep keys apart. On a
        // loaded machine 120 ms may pass before the program reads it, and Escape and the next
        // key read together are Alt+key: wait (up to 1.5 s) for its answer on the screen too.
        await sleep(k === KEY.escape ? 120 : 40);
        if (k === KEY.escape) for (let t = 0; raw.length === before && t < 1500; t += 20) await sleep(20);
      }
      await flush();
    },
    async type(text) {
      for (const ch of text) await app.press(ch);
    },
    pressOnOutput(pattern, key) {
      return new Promise((done) => triggers.push({ pattern, key, done }));
    },
    async resize(c, r) {
      p.resize(c, r);
      term.resize(c, r);
      await sleep(80);
      await flush();
    },
    exited,
    kill: (signal) => p.kill(signal),
    hangUp: () => p.destroy(),
  };
  return app;
}

// Pseudo-terminal driver for the TUI benchmarks (issues #3 and #4): runs a command in
// node-pty, renders its output in a headless xterm, and times screen changes.
//
//   const s = launchInPty(process.execPath, [CLI, "--session-dir", dir], { cols: 120, rows: 40 });
//   const firstRows = await s.waitFor((screen) => /\d+ msgs/.test(screen));  // ms since spawn
//   const latency = await s.keyLatency("\x1b[B");                           // ms, ↓ to next frame
//   const rssMB = s.peakRssMB();                                             // VmHWM, Linux only
//   s.kill();
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export const KEYS = { down: "\x1b[B", up: "\x1b[A", enter: "\r", escape: "\x1b", pageDown: "\x1b[6~" };

export function launchInPty(cmd, args, { cols = 120, rows = 40, env = {}, cwd = process.cwd() } = {}) {
  const pty = require("node-pty");
  const { Terminal } = require("@xterm/headless");
  const term = new Terminal({ cols, rows, allowProposedApi: true });
  // Unicode 11 widths, as today's terminals have them (xterm.js alone counts emoji as one cell).
  const { Unicode11Addon } = require("@xterm/addon-unicode11");
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = "11";
  const t0 = performance.now();
  // An `undefined` in `env` removes that variable (CI, say: ink draws only a last frame in CI).
  const childEnv = { ...process.env, TERM: "xterm-256color", ...env };
  for (const [k, v] of Object.entries(childEnv)) if (v === undefined) delete childEnv[k];
  const proc = pty.spawn(cmd, args, { name: "xterm-256color", cols, rows, cwd, env: childEnv });
  let exited = null;
  let version = 0; // bumps after each chunk of output has been parsed into the buffer
  const listeners = new Set();
  let bytes = 0; // everything the program wrote, for bytes-per-key
  proc.onData((d) => {
    bytes += Buffer.byteLength(d);
    term.write(d, () => {
      // The frame's time is when its output was parsed, before any listener reads the screen.
      const at = performance.now();
      version++;
      for (const l of [...listeners]) l(at);
    });
  });
  proc.onExit((e) => {
    exited = e;
    for (const l of [...listeners]) l(performance.now());
  });

  const screen = () => {
    const b = term.buffer.active;
    const lines = [];
    for (let i = 0; i < rows; i++) lines.push(b.getLine(b.viewportY + i)?.translateToString(true) ?? "");
    return lines.join("\n");
  };

  /** Resolves with ms since `since` (default: spawn) once `pred(screen)` holds after some output. */
  const waitFor = (pred, { timeoutMs = 30_000, since = t0 } = {}) =>
    new Promise((resolve, reject) => {
      const check = (at = performance.now()) => {
        if (pred(screen())) {
          done();
          resolve(at - since);
        } else if (exited) {
          done();
          reject(new Error(`process exited (${JSON.stringify(exited)}) before the screen matched:\n${screen()}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out after ${timeoutMs} ms; screen:\n${screen()}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });

  /** Sends `key` and resolves with ms until the screen differs from before the key. */
  const keyLatency = (key, opts) => {
    const before = screen();
    const since = performance.now();
    proc.write(key);
    return waitFor((s) => s !== before, { ...opts, since });
  };

  /** Peak RSS of the spawned process (Linux /proc VmHWM), in MB; NaN elsewhere or after exit. */
  const peakRssMB = () => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"));
      return m ? Number(m[1]) / 1024 : NaN;
    } catch {
      return NaN;
    }
  };

  const exitedP = new Promise((r) => proc.onExit(r));
  /** Sends `q` and waits for the exit (kills after 5 s); frees the terminal. */
  const quit = async () => {
    proc.write("q");
    const t = setTimeout(() => proc.kill(), 5000);
    const e = await exitedP;
    clearTimeout(t);
    term.dispose();
    return e;
  };

  return {
    t0,
    term,
    proc,
    get bytes() {
      return bytes;
    },
    screen,
    waitFor,
    keyLatency,
    peakRssMB,
    quit,
    write: (s) => proc.write(s),
    kill: () => proc.kill(),
    get version() {
      return version;
    },
  };
}

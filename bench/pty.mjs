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
  const t0 = performance.now();
  const proc = pty.spawn(cmd, args, { cols, rows, cwd, env: { ...process.env, TERM: "xterm-256color", ...env } });
  let exited = null;
  let version = 0; // bumps after each chunk of output has been parsed into the buffer
  const listeners = new Set();
  proc.onData((d) =>
    term.write(d, () => {
      version++;
      for (const l of [...listeners]) l();
    }),
  );
  proc.onExit((e) => {
    exited = e;
    for (const l of [...listeners]) l();
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
      const check = () => {
        if (pred(screen())) {
          done();
          resolve(performance.now() - since);
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

  return { term, proc, screen, waitFor, keyLatency, peakRssMB, write: (s) => proc.write(s), kill: () => proc.kill(), get version() { return version; } };
}

import { appendFileSync } from "node:fs";

/*
 * PI_SESSIONS_TRACE=FILE: a line per step of a launch (the program loaded, ssh started, a
 * host's hello and answer, each frame drawn), appended to FILE with the wall-clock and
 * process-relative milliseconds and the pid, so the browser's and a host's serve line up in
 * one timeline (bench/, docs/performance.md "Other machines"). Never on the terminal.
 */

const file = process.env.PI_SESSIONS_TRACE;

/** Whether steps are being traced (a caller skips making a costly message otherwise). */
export const tracing = !!file;

/** One step: `performance.timeOrigin + now`, `now`, the pid and `what`. */
export function trace(what: string): void {
  if (!file) return;
  const now = performance.now();
  try {
    appendFileSync(file, `${(performance.timeOrigin + now).toFixed(1)} ${now.toFixed(1)} ${process.pid} ${what}\n`);
  } catch {
    // A trace that cannot be written is no reason to stop.
  }
}

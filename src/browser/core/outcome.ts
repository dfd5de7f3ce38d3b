/** How the browser ended; the launcher acts on it after the terminal is restored. `new`: a new pi session in `cwd`. */
export type Outcome =
  /** `interrupted`: Ctrl+C, which ends with 130 as a shell's interrupt does (q ends with 0). */
  | { kind: "quit"; interrupted?: boolean }
  | { kind: "print"; path: string }
  | { kind: "resume"; path: string; cwd: string; note?: string }
  | { kind: "new"; cwd: string };

/**
 * Leave the browser (`exit`), resume a session once the runner checked that pi can start
 * (in its folder, or in `launchCwd` when that is gone: pi then asks, once, whether to
 * continue or fork there), or `suspend` to the shell (Ctrl+Z) until fg.
 */
export type LeaveEffect =
  | { type: "exit"; outcome: Outcome }
  | { type: "resume"; path: string; cwd: string; launchCwd: string }
  | { type: "suspend" };

export const QUIT: LeaveEffect = { type: "exit", outcome: { kind: "quit" } };
export const INTERRUPT: LeaveEffect = { type: "exit", outcome: { kind: "quit", interrupted: true } };

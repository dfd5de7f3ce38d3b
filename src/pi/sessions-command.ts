import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** What the /sessions handler needs of pi's command context (a subset, so tests can record it). */
export interface SessionsContext {
  hasUI: boolean;
  cwd: string;
  sessionManager: { getSessionFile(): string | undefined; getSessionDir(): string };
  ui: {
    custom<T>(
      factory: (
        tui: { stop(): void; start(): void; requestRender(force?: boolean): void },
        theme: unknown,
        keybindings: unknown,
        done: (result: T) => void,
      ) => unknown,
    ): Promise<T>;
    notify(message: string, type?: "info" | "warning" | "error"): void;
  };
  switchSession(path: string): Promise<{ cancelled: boolean }>;
}

export interface SessionsDeps {
  /** Runs the browser with the terminal handed over; returns its exit code. */
  runBrowser(args: string[]): number | null;
  resultFile(): string;
  clearScreen(): void;
}

// The bundled CLI starts several times faster; the unbundled one when there is no bundle.
const BUNDLE = fileURLToPath(new URL("../../bundle/cli.js", import.meta.url));
const CLI = existsSync(BUNDLE) ? BUNDLE : fileURLToPath(new URL("../../components/app/cli.js", import.meta.url));

export const realDeps: SessionsDeps = {
  runBrowser: (args) => spawnSync(process.execPath, [CLI, ...args], { stdio: "inherit", env: process.env }).status,
  resultFile: () => join(tmpdir(), `pi-sessions-choice-${process.pid}-${Date.now()}.txt`),
  clearScreen: () => void process.stdout.write("\x1b[2J\x1b[H"),
};

/** The store the running pi uses: the parent of a per-folder session dir, or a flat custom dir itself. */
export function storeDirOf(sessionDir: string): string {
  return /^--.*--$/.test(basename(sessionDir)) ? dirname(sessionDir) : sessionDir;
}

/**
 * /sessions: stop pi's TUI, run the browser in picker mode on this store (marking the
 * session open in pi), restart and redraw the TUI, then switch to the chosen session
 * through pi's own API. A cancelled pick changes nothing.
 */
export async function runSessionsCommand(
  args: string,
  ctx: SessionsContext,
  deps: SessionsDeps = realDeps,
): Promise<string | undefined> {
  if (!ctx.hasUI) {
    ctx.ui.notify("/sessions needs the interactive terminal UI", "warning");
    return undefined;
  }
  const resultFile = deps.resultFile();
  const current = ctx.sessionManager.getSessionFile();
  const mtimeOf = (p: string) => {
    try {
      return statSync(p).mtimeMs;
    } catch {
      return -1;
    }
  };
  const currentMtime = current ? mtimeOf(current) : -1;
  const browserArgs = ["--session-dir", storeDirOf(ctx.sessionManager.getSessionDir()), "--result-file", resultFile];
  if (current) browserArgs.push("--current", current);
  if (args.trim()) browserArgs.push("--query", args.trim());
  await ctx.ui.custom<number | null>((tui, _theme, _kb, done) => {
    tui.stop();
    deps.clearScreen();
    const code = deps.runBrowser(browserArgs);
    tui.start();
    tui.requestRender(true);
    done(code);
    return { render: () => [], invalidate: () => undefined };
  });
  let chosen = "";
  try {
    chosen = readFileSync(resultFile, "utf8").trim();
  } catch {
    // no file: cancelled
  } finally {
    rmSync(resultFile, { force: true });
  }
  // The open session chosen again: reload it only if the browser wrote to it (resume at an entry).
  if (!chosen || (chosen === current && mtimeOf(chosen) === currentMtime)) return undefined;
  await ctx.switchSession(chosen);
  return chosen;
}

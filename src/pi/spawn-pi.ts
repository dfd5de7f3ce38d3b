import { spawn } from "node:child_process";
import { accessSync, closeSync, constants as fsConstants, existsSync, openSync, readSync, statSync } from "node:fs";
import { constants } from "node:os";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { userEnv } from "./user-env.js";

/**
 * The pi command may carry arguments ("node /path/fake-pi.js"); a string that is an
 * existing file is taken whole, so a path with spaces still works.
 */
export function splitCommand(cmd: string): string[] {
  if (existsSync(cmd)) return [cmd];
  return cmd.trim().split(/\s+/).filter(Boolean);
}

/**
 * pi's arguments: open the session. Where its folder is gone pi (1.5 and later) asks, once,
 * whether to continue in the folder it was started in or fork the session into it.
 */
export function piArgs(sessionPath: string): string[] {
  return ["--session", sessionPath];
}

/** pi's arguments for `n`: none, so pi starts a new session in the folder it runs in. */
export function newSessionArgs(): string[] {
  return [];
}

/** How a pi run ended: its exit code (128 + n after signal n), and whether it started at all. */
export interface PiRun {
  code: number;
  signal?: NodeJS.Signals;
  /** False when pi could not be run (127, said on stderr): the browser must not come back as if it had. */
  started: boolean;
}

/**
 * Run `<pi> <args>` in `cwd` on the inherited terminal; resolves once it has exited. pi is
 * looked up on, and runs with, the user's own PATH (not the one `npm start` put in front).
 */
export function spawnPi(
  piCommand: string,
  piArguments: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = userEnv(),
): Promise<PiRun> {
  const [cmd, ...args] = splitCommand(piCommand);
  return runOnTerminal(
    cmd ?? "pi",
    [...args, ...piArguments],
    { cwd, env },
    (e) => `could not run '${piCommand}': ${e.message}\n(set --pi-command or $PI_SESSIONS_PI)`,
  );
}

/**
 * Runs a program on the inherited terminal (pi here, or ssh running pi on another machine:
 * src/remote) and resolves once it has exited; one that cannot start says why on stderr (127).
 */
export function runOnTerminal(
  program: string,
  args: readonly string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv },
  cannot: (e: Error) => string,
): Promise<PiRun> {
  return new Promise((resolve) => {
    // Ctrl+C belongs to the program now; the terminal sends SIGINT to both of us.
    const ignore = () => {};
    const signals: NodeJS.Signals[] = ["SIGINT", "SIGQUIT"];
    for (const s of signals) process.on(s, ignore);
    const done = (run: PiRun) => {
      for (const s of signals) process.off(s, ignore);
      resolve(run);
    };
    const child = spawn(program, args, { ...opts, stdio: "inherit" });
    child.on("error", (e) => {
      process.stderr.write(`pi-sessions: ${cannot(e)}\n`);
      done({ code: 127, started: false });
    });
    child.on("exit", (code, signal) =>
      done({
        code: code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1),
        started: true,
        ...(signal ? { signal } : {}),
      }),
    );
  });
}

function runnable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why `piCommand` cannot be started, or undefined when it can: checked before the browser
 * gives up the screen (and before a resume-at-entry writes), so a missing pi is said in
 * place and the browser stays open.
 */
export function piCommandProblem(
  piCommand: string,
  env: NodeJS.ProcessEnv = userEnv(),
  cwd = process.cwd(),
  platform = process.platform,
): string | undefined {
  const [cmd] = splitCommand(piCommand);
  const how = 'set --pi-command, $PI_SESSIONS_PI or "piCommand" in the config';
  if (!cmd) return `no pi command to resume with; ${how}`;
  const found =
    cmd.includes("/") || cmd.includes("\\") ? (isAbsolute(cmd) ? cmd : resolve(cwd, cmd)) : onPath(cmd, env, platform);
  if (!found) return `cannot resume: '${cmd}' is not on PATH; ${how}`;
  if (!runnable(found)) return `cannot resume: ${cmd} is not an executable file; ${how}`;
  // A script whose interpreter is gone fails only once exec'd: too late, after a resume-at-entry wrote.
  const interp = platform === "win32" ? undefined : missingInterpreter(found, env);
  return interp ? `cannot resume: ${cmd} is a script for ${interp}, which cannot be found; ${how}` : undefined;
}

/** The first runnable `cmd` on PATH (with PATHEXT on Windows). */
function onPath(cmd: string, env: NodeJS.ProcessEnv, platform: string): string | undefined {
  const exts = platform === "win32" ? ["", ...(env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";")] : [""];
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    for (const ext of exts) if (runnable(join(dir, cmd + ext))) return join(dir, cmd + ext);
  }
  return undefined;
}

/**
 * The interpreter a `#!` script names when it cannot be run (`#!/no/such/node`, or
 * `#!/usr/bin/env node` with no node on PATH); undefined for a binary or a runnable one.
 */
export function missingInterpreter(file: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  let line: string;
  try {
    const fd = openSync(file, "r");
    try {
      const buf = Buffer.alloc(256);
      const n = readSync(fd, buf, 0, 256, 0);
      line = buf.subarray(0, n).toString("latin1").split("\n")[0];
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  if (!line.startsWith("#!")) return undefined;
  const [interp, ...rest] = line.slice(2).trim().split(/\s+/);
  if (!interp) return "(nothing)";
  if (!runnable(interp)) return interp;
  if (!/(^|\/)env$/.test(interp)) return undefined;
  // env NAME: NAME must be on PATH (flags such as -S and VAR=value assignments skipped).
  const name = rest.find((a) => !a.startsWith("-") && !a.includes("="));
  return name && !name.includes("/") && !onPath(name, env, process.platform) ? name : undefined;
}

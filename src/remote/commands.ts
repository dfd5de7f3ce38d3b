import { COMMAND_TABLE } from "../cli/commands/table.js";
import { CliError } from "../cli/common/errors.js";
import type { CliIO } from "../cli/common/io.js";
import { sanitizeLine } from "../text/sanitize.js";

/*
 * The command line's own commands, run in-process with their output captured: what the
 * server answers with (the same code, the same checks as `pi-sessions list` there), and how
 * the client takes this machine's rows to put beside a host's.
 */

/** The commands a host runs for a request, or this machine's beside a host's. */
export type CommandName = Exclude<keyof typeof COMMAND_TABLE, "config" | "index">;

/** What a command printed: its exit status, stdout and stderr. */
export interface Ran {
  exit: number;
  out: Buffer;
  err: string;
}

/** Runs a command as `run` does (its error one line on stderr, its exit status), stdout and stderr captured. */
export async function runCaptured(
  name: CommandName,
  args: string[],
  shape: { cwd: string; env: NodeJS.ProcessEnv; isTTY?: boolean; columns?: number; stderr?: (t: string) => void },
): Promise<Ran> {
  const out: Buffer[] = [];
  let err = "";
  const io: CliIO = {
    stdout: (t) => out.push(Buffer.from(t)),
    // A copy: with no `drained`, the caller fills the same buffer again once this returns.
    stdoutBytes: (b) => out.push(Buffer.from(b)),
    stderr: shape.stderr ?? ((t) => (err += t)),
    cwd: shape.cwd,
    env: shape.env,
    isTTY: !!shape.isTTY,
    ...(shape.columns ? { columns: shape.columns } : {}),
  };
  let exit: number;
  try {
    exit = await (await COMMAND_TABLE[name]())(args, io);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const code = (e as NodeJS.ErrnoException).code;
    io.stderr(
      `pi-sessions: ${sanitizeLine(code && !message.startsWith(`${code}:`) ? `${code}: ${message}` : message)}\n`,
    );
    exit = e instanceof CliError ? e.exitCode : 1;
  }
  return { exit, out: Buffer.concat(out), err };
}

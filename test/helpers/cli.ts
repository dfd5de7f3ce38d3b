import { UI_COMMANDS } from "../../components/app/uiCommands.js";
import { run } from "../../src/cli/main.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs one pi-sessions invocation in-process, capturing its output. `env` replaces the
 * process environment entirely (default: empty), so a developer's own
 * PI_CODING_AGENT_SESSION_DIR can't leak into a test.
 */
export async function runCli(
  argv: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; isTTY?: boolean; columns?: number } = {},
): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await run(
    argv,
    {
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stderr += t),
      cwd: opts.cwd ?? process.cwd(),
      env: opts.env ?? {},
      isTTY: opts.isTTY ?? false,
      // A terminal's width; undefined is a pipe.
      columns: opts.columns,
    },
    UI_COMMANDS,
  );
  return { code, stdout, stderr };
}

/** runCli and JSON.parse its stdout, failing loudly with stderr when the exit code isn't 0. */
export async function runCliJson<T = unknown>(
  argv: string[],
  opts: Parameters<typeof runCli>[1] = {},
): Promise<{ json: T; stderr: string }> {
  const r = await runCli(argv, opts);
  if (r.code !== 0) throw new Error(`pi-sessions ${argv.join(" ")} exited ${r.code}: ${r.stderr}`);
  return { json: JSON.parse(r.stdout) as T, stderr: r.stderr };
}

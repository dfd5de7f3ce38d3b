/** What a command may touch of the process, so tests can run commands in-process. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  isTTY: boolean;
  /** The terminal's width when stdout is one (text output is cut to it). */
  columns?: number;
  /** Called once the browser has drawn its first frame (the launcher saves its code cache then). */
  onFirstFrame?: () => void;
}

export function processIO(): CliIO {
  return {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    cwd: process.cwd(),
    env: process.env,
    isTTY: !!process.stdin.isTTY && !!process.stdout.isTTY,
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
  };
}

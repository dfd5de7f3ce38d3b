import type { Writable } from "node:stream";
/** What a command may touch of the process, so tests can run commands in-process. */
export interface CliIO {
  stdout: (text: string) => void;
  /**
   * Bytes to stdout as they are (UTF-8 text made already); absent: stdout takes them decoded.
   * It may hold on to them (a pipe its reader is behind on) until `drained` says it is done;
   * an io with no `drained` must be done with them when it returns (copy them if it keeps them):
   * the caller fills the same buffer again.
   */
  stdoutBytes?: (bytes: Uint8Array) => void;
  /** Undefined once stdout holds none of what it was given, else a promise of that moment (a buffer given may then be filled again). */
  drained?: () => Promise<void> | undefined;
  stderr: (text: string) => void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  isTTY: boolean;
  /** The terminal's width when stdout is one (text output is cut to it). */
  columns?: number;
  /** Called once the browser has drawn its first frame (the launcher saves its code cache then). */
  onFirstFrame?: () => void;
  /** The launcher's own script (src/bin.ts), to start a command of ours in a child process; absent in-process. */
  program?: string;
}

/**
 * Whether stdout is done with every buffer given to it (CliIO.stdoutBytes' contract): it
 * takes text (a copy), or takes bytes and is done with them when it returns (no `drained`),
 * or holds none now. A buffer made for one write may then be let go of at once (freeBytes).
 * Asking `drained` may write an empty chunk (its callback says when what is held went out).
 */
export function stdoutHoldsNone(io: CliIO): boolean {
  return !io.stdoutBytes || !io.drained || io.drained() === undefined;
}

/**
 * The command's io under -q / --quiet: its notes, warnings, hints and progress go nowhere,
 * so a script's stderr stays empty. An error that ends the command is still said, by
 * run() on the io it was given, and the exit status says it failed.
 */
export function quietIO(io: CliIO, quiet: boolean | undefined): CliIO {
  return quiet ? { ...io, stderr: () => {} } : io;
}

/**
 * An io whose notes (stderr) are held until the command prints its answer (stdout) or
 * ends, then said in order; `drop` forgets them, for a command about to be made again
 * that will say them itself (search, when kept rows are found damaged mid-search). A
 * progress line (`\r` first, a terminal's only) is shown at once: the next overwrites it.
 */
export function heldNotes(io: CliIO): { io: CliIO; release(): void; drop(): void } {
  let held: string[] | undefined = [];
  const release = () => {
    const notes = held;
    held = undefined;
    for (const t of notes ?? []) io.stderr(t);
  };
  const { stdoutBytes } = io;
  return {
    io: {
      ...io,
      stderr: (t) => (held && !t.startsWith("\r") ? void held.push(t) : io.stderr(t)),
      stdout: (t) => {
        release();
        io.stdout(t);
      },
      stdoutBytes:
        stdoutBytes &&
        ((b) => {
          release();
          stdoutBytes(b);
        }),
    },
    release,
    drop: () => {
      held = [];
    },
  };
}

/** A reader that went away (`| head`): the rest of the output has nowhere to go. */
const isClosedPipe = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code === "EPIPE";

/**
 * Stdout closed by its reader ends the program quietly with status 0, as `ls | head` does:
 * no stack trace, nothing more written. Stderr that cannot be written (closed by its reader,
 * as in `2>&1 | head`) fails nothing: its notes are lost, and the command ends with the status
 * it has, as it would with stdout alone in the pipe.
 */
let watchingPipe = false;
function endOnClosedPipe(): void {
  if (watchingPipe) return;
  watchingPipe = true;
  process.stdout.on("error", (err) => {
    // The browser listens too (a vanished terminal is a hang-up, exit 129): its rule wins.
    if (process.stdout.listenerCount("error") > 1) return;
    if (isClosedPipe(err)) process.exit(0);
    writeErr(`pi-sessions: cannot write the output: ${err.message}\n`);
    process.exit(1);
  });
  // Nowhere left to say it: without a listener the error would end the program with status 1.
  process.stderr.on("error", () => {});
}

/** Text to stderr; one that cannot take it (a closed pipe) leaves the text unsaid. */
function writeErr(text: string): void {
  try {
    process.stderr.write(text);
  } catch {
    // Nowhere to say it.
  }
}

/** Text or bytes to stdout; a reader that went away (`| head`) ends the program quietly. */
function writeOut(chunk: string | Uint8Array): void {
  try {
    process.stdout.write(chunk);
  } catch (err) {
    if (isClosedPipe(err)) process.exit(0);
    throw err;
  }
}

/**
 * CliIO.drained for a stream: undefined when it holds nothing, else a promise kept once all it
 * was given is written. Not its "drain": that comes only after a write it refused (one the size
 * of its high-water mark or more), and a last small chunk a pipe took in part would wait forever.
 * An empty write's callback comes after every write before it.
 */
export function drainedOf(stream: Writable): () => Promise<void> | undefined {
  return () =>
    stream.writableLength === 0 ? undefined : new Promise<void>((resolve) => stream.write(EMPTY, () => resolve()));
}
const EMPTY = new Uint8Array(0);

export function processIO(): CliIO {
  endOnClosedPipe();
  return {
    stdout: writeOut,
    stdoutBytes: writeOut,
    drained: drainedOf(process.stdout),
    stderr: writeErr,
    cwd: process.cwd(),
    env: process.env,
    isTTY: !!process.stdin.isTTY && !!process.stdout.isTTY,
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
  };
}

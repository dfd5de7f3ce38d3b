import { spawn as nodeSpawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { setPriority } from "node:os";
import { indexerLockState } from "./indexer-lock.js";
import type { CliIO } from "./io.js";

/*
 * A search that had to read what the index does not hold yet starts `pi-sessions index`
 * on its own, as the browser indexes on its scan thread, so the next search is fast: a
 * detached child at the lowest priority (nice 19: every thread of it, as it starts under
 * `nice`), with no terminal (no standard streams, a session of its own: it says nothing,
 * and nothing after the search has ended), one at a time per store (indexer-lock.ts).
 */

/** Marks the child as the background indexer: it takes the lock, or ends at once (src/cli/commands/index.ts). */
export const BACKGROUND_ENV = "PI_SESSIONS_INDEX_IN_BACKGROUND";

/** The lowest priority. */
const NICE = 19;

export type Spawn = (command: string, args: string[], options: SpawnOptions) => ChildProcess;

export interface IndexLater {
  /** A background indexer of this store runs already (start does nothing). */
  running: boolean;
  /** Starts one (call it once the search has answered: it takes nothing from the answer). */
  start(): void;
}

/**
 * Whether the index of `storeDir` (its file at `indexPath`) can be built in the background
 * now: undefined when not (a run in-process with no program to start, the index turned
 * off, background indexing turned off with PI_SESSIONS_INDEX_BACKGROUND=0, or a lock that
 * is not ours).
 */
export function indexLater(
  indexPath: string,
  storeDir: string,
  io: CliIO,
  spawn: Spawn = nodeSpawn,
): IndexLater | undefined {
  const { program, env } = io;
  if (!program || env.PI_SESSIONS_INDEX === "0" || env.PI_SESSIONS_INDEX_BACKGROUND === "0") return undefined;
  const state = indexerLockState(indexPath);
  if (state === "unusable") return undefined;
  if (state === "held") return { running: true, start: () => {} };
  return {
    running: false,
    start() {
      const args = [program, "index", "--quiet", "--session-dir", storeDir];
      const windows = process.platform === "win32";
      let child: ChildProcess;
      try {
        child = spawn(
          windows ? process.execPath : "nice",
          windows ? args : ["-n", String(NICE), process.execPath, ...args],
          {
            cwd: io.cwd,
            env: { ...env, [BACKGROUND_ENV]: "1" },
            detached: true,
            stdio: "ignore",
            windowsHide: true,
          },
        );
      } catch {
        return; // not started: the next search tries again
      }
      // No `nice` to run it (or no node): nothing said, the next search tries again.
      child.on("error", () => {});
      if (windows && child.pid !== undefined) {
        try {
          setPriority(child.pid, NICE);
        } catch {
          // Runs at the usual priority.
        }
      }
      child.unref();
    },
  };
}

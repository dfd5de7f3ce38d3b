import { type LifecycleDeps, runLifecycleEffect } from "../lifecycle/lifecycleEffects.js";
import { type LoadIndex, runReaderEffect } from "../reader/readerRunner.js";
import { isReaderEffect } from "../reader/readerEffects.js";
import type { AppAction } from "./appReducer.js";
import type { Effect, Outcome } from "./effects.js";
import { isLifecycleEffect } from "../lifecycle/lifecycleTypes.js";
import { runTakeoutEffect, type TakeoutIO } from "../copy-export/copyExportRunner.js";
import { isTakeoutEffect } from "../copy-export/copyExportTypes.js";
import { isTreeEffect } from "../tree/treeEffects.js";
import { runTreeEffect, type TreeIO } from "../tree/treeRunner.js";
import { runTrashEffect, type TrashIO } from "../trash/trashRunner.js";
import { isTrashEffect } from "../trash/trashTypes.js";
import { statSync } from "node:fs";
import { searchFileSync } from "../../search/fulltext.js";
import { fsPath } from "../../store/fs-path.js";
import type { VerifiedAction, VerifyEffect } from "./verifyTypes.js";

/** Everything effects reach outside the state: files, pi, the clipboard, the terminal. Tests pass fakes. */
export interface EffectIO {
  lifecycle: LifecycleDeps;
  tree: TreeIO;
  loadIndex: LoadIndex;
  takeout: TakeoutIO;
  trash: TrashIO;
  /** Whether the folder of the session at `path` exists (where pi would run in it). */
  cwdExists(dir: string, path?: string): boolean;
  /** Why pi cannot be started (for the session at `path`), or undefined; not checked when absent. */
  piProblem?(path?: string): string | undefined;
  /** Hands how the user left to the launcher. */
  exit(outcome: Outcome): void;
  /** After an own write: the store watcher looks at once. */
  afterWrite(): void;
  /** Ctrl+Z: give the terminal back and stop until fg; false when there is no job control to come back through. */
  suspend?(): boolean;
}

export interface EffectRunner {
  run(e: Effect, dispatch: (a: AppAction) => void): void;
  /** Cancels work still under way (a tree search). */
  dispose(): void;
}

/**
 * The one place effects run. `io` is read at each effect, so the runner always uses the
 * browser's current deps. "resume" checks that pi can be started (else says why, and the
 * browser stays), and starts it in the session's folder, or where the browser was started
 * when that folder is gone (pi asks there).
 */
export function createEffectRunner(io: () => EffectIO): EffectRunner {
  const treeCtx: { search?: AbortController } = {};
  return {
    run(e, dispatch) {
      const x = io();
      if (isLifecycleEffect(e)) return runLifecycleEffect(e, x.lifecycle, dispatch, x.afterWrite);
      if (isTreeEffect(e)) return runTreeEffect(e, dispatch, x.tree, treeCtx, x.afterWrite);
      if (isReaderEffect(e)) return runReaderEffect(e, dispatch, x.loadIndex);
      if (isTakeoutEffect(e)) return runTakeoutEffect(e, x.takeout, dispatch, x.exit);
      if (isTrashEffect(e)) return runTrashEffect(e, x.trash, dispatch);
      if (e.type === "fulltext.verify") return dispatch(verify(e));
      if (e.type === "suspend") {
        if (!x.suspend?.())
          dispatch({
            type: "lifecycle.failed",
            message: "Ctrl+Z: no shell job control here to come back with fg; not suspended",
          });
        return;
      }
      const resuming = e.type === "resume" || (e.type === "exit" && e.outcome.kind === "resume");
      const path = e.type === "resume" ? e.path : e.outcome.kind === "resume" ? e.outcome.path : undefined;
      const problem = resuming ? x.piProblem?.(path) : undefined;
      if (problem) dispatch({ type: "lifecycle.failed", message: problem });
      else if (e.type === "exit") x.exit(e.outcome);
      // A folder that is gone: pi starts here and asks itself (continue here, fork here or
      // cancel), so the question is asked once, by pi, as a pi user knows it.
      else x.exit({ kind: "resume", path: e.path, cwd: e.cwd && x.cwdExists(e.cwd, e.path) ? e.cwd : e.launchCwd });
    },
    dispose() {
      treeCtx.search?.abort();
    },
  };
}

/** The biggest file a held action reads at once (~40 ms): a bigger one is left to the search's check. */
export const VERIFY_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The file of a held action's session as it is now (the index's lines of it are not
 * believed). A session whose row its own fields make (need null, or every entry false)
 * holds whatever its file does; a file that cannot be read is no verdict.
 */
function verify(e: VerifyEffect): VerifiedAction {
  const { key, path, action } = e;
  // Nothing needed of its conversation (null, or no term needed of it): not read.
  if (e.need === null || e.need?.every((n) => !n)) return { type: "fulltext.verified", key, path, holds: true, action };
  try {
    // A big file would keep every key waiting (~0.5 s for 100 MB): the search checks it in the background.
    const bytes = statSync(fsPath(path)).size;
    if (bytes > VERIFY_MAX_BYTES) return { type: "fulltext.verified", key, path, holds: false, large: bytes, action };
    const holds = searchFileSync(path, e.terms, e.includeTools, e.need) !== null;
    return { type: "fulltext.verified", key, path, holds, action };
  } catch (err) {
    const unread = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return { type: "fulltext.verified", key, path, holds: false, unread, action };
  }
}

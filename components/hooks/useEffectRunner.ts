import { type Dispatch, useEffect } from "react";
import type { AppAction } from "../state/appReducer.js";
import type { Effect, Outcome } from "../state/effects.js";
import { isLifecycleEffect } from "../state/lifecycle.js";
import { isTreeEffect } from "../tree/treeEffects.js";
import { isReaderEffect } from "../reader/readerEffects.js";
import { isTakeoutEffect } from "../takeout/takeoutTypes.js";

/**
 * The one place reducer requests become side effects. "resume" checks that pi can be
 * started (else says why, and the browser stays) and that the folder exists (else opens
 * the dialog); "exit" hands the outcome over.
 */
export function useEffectRunner(
  effects: readonly Effect[],
  dispatch: Dispatch<AppAction>,
  cwdExists: (dir: string) => boolean,
  exit: (o: Outcome) => void,
  piProblem?: () => string | undefined,
): void {
  useEffect(() => {
    // Rename, delete and restore are carried out by useLifecycleEffects.
    // The branch tree's loads, searches and writes are carried out by useTreeEffects,
    // the reader's loads by useReaderEffects, copy / export / new by useTakeoutEffects.
    const mine = effects.filter((e) => !isLifecycleEffect(e) && !isTreeEffect(e) && !isReaderEffect(e) && !isTakeoutEffect(e));
    if (mine.length === 0) return;
    for (const e of mine) {
      const resuming = e.type === "resume" || (e.type === "exit" && e.outcome.kind === "resume");
      const problem = resuming ? piProblem?.() : undefined;
      if (problem) dispatch({ type: "life.failed", message: problem });
      else if (e.type === "exit") exit(e.outcome);
      else if (e.type !== "resume") continue;
      else if (e.cwd && cwdExists(e.cwd)) exit({ kind: "resume", path: e.path, cwd: e.cwd });
      else dispatch({ type: "dialog.cwdMissing", path: e.path, cwd: e.cwd });
    }
    dispatch({ type: "effects.done", ids: mine.map((e) => e.id) });
  }, [effects, dispatch, cwdExists, exit, piProblem]);
}

import { type Dispatch, useEffect } from "react";
import type { AppAction } from "../state/appReducer.js";
import type { Effect, Outcome } from "../state/effects.js";

/**
 * The one place reducer requests become side effects. "resume" checks the folder
 * first and opens the dialog when it is gone; "exit" hands the outcome over.
 */
export function useEffectRunner(effects: readonly Effect[], dispatch: Dispatch<AppAction>, cwdExists: (dir: string) => boolean, exit: (o: Outcome) => void): void {
  useEffect(() => {
    if (effects.length === 0) return;
    for (const e of effects) {
      if (e.type === "exit") exit(e.outcome);
      else if (e.cwd && cwdExists(e.cwd)) exit({ kind: "resume", path: e.path, cwd: e.cwd });
      else dispatch({ type: "dialog.cwdMissing", path: e.path, cwd: e.cwd });
    }
    dispatch({ type: "effects.done", ids: effects.map((e) => e.id) });
  }, [effects, dispatch, cwdExists, exit]);
}

import { type Dispatch, useCallback, useEffect } from "react";
import type { AppAction, AppState } from "../../src/browser/app/appReducer.js";

/**
 * Rows put off for keys read together (appReducer's update) are derived once no key waits
 * any longer, whatever the last key read came to: a key handed on with `more` may be followed
 * by nothing that reaches the state (a report that is no action, a sequence that comes to
 * nothing), and the rows must never stay those of an older query. Checked after each frame
 * and each time the keys read are all handed on (KeyStream's "idle").
 */
export function useRowsDue(
  stdin: NodeJS.ReadableStream | undefined,
  putOff: boolean,
  latest: () => AppState,
  dispatch: Dispatch<AppAction>,
  keysQueued: () => boolean = () => false,
): void {
  const due = useCallback(() => {
    if (latest().rowsPutOff && !keysQueued()) dispatch({ type: "rows.due" });
  }, [latest, dispatch, keysQueued]);
  useEffect(() => {
    if (putOff) due();
  }, [putOff, due]);
  useEffect(() => {
    if (!stdin) return;
    stdin.on("idle", due);
    return () => void stdin.off("idle", due);
  }, [stdin, due]);
}

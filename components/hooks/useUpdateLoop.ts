import { useCallback, useEffect, useRef, useState } from "react";

/** An Elm-shaped update: the new state and the effects it asks for. */
export type Update<S, A, E> = (state: S, action: A) => readonly [S, readonly E[]];

/** Carries out one effect; its results come back through `dispatch`. */
export type RunEffect<A, E> = (effect: E, dispatch: (action: A) => void) => void;

/**
 * The app's one state loop. Each action goes through `update` against the state it applies
 * to (actions dispatched while one is being handled queue behind it, in order); the effects
 * it returns go straight to `run` and are never kept in the state. React draws the result.
 * `initial`: effects asked for at start (before any action). The third value reads the
 * state as of the last action handled, even before React has drawn it (an effect that
 * ends the app reads it there).
 */
export function useUpdateLoop<S, A, E>(
  update: Update<S, A, E>,
  init: () => S,
  run: RunEffect<A, E>,
  initial: readonly E[] = [],
): [S, (action: A) => void, () => S] {
  const [state, setState] = useState(init);
  const current = useRef(state);
  const runner = useRef(run);
  runner.current = run;
  const queue = useRef<A[]>([]);
  const busy = useRef(false);

  const dispatch = useCallback(
    (action: A) => {
      queue.current.push(action);
      if (busy.current) return;
      busy.current = true;
      try {
        for (let a = queue.current.shift(); a !== undefined; a = queue.current.shift()) {
          const [next, effects] = update(current.current, a);
          current.current = next;
          for (const e of effects) runner.current(e, dispatch);
        }
      } finally {
        busy.current = false;
      }
      setState(current.current);
    },
    [update],
  );

  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    for (const e of initial) runner.current(e, dispatch);
  }, [initial, dispatch]);

  const latest = useCallback(() => current.current, []);
  return [state, dispatch, latest];
}

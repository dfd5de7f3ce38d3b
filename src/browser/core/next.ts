/*
 * The Elm shape: an update gives the new state and the effects it asks for. A reducer that
 * asks for nothing returns the state alone (most do), so `Next` is either; the root `update`
 * always hands the app loop a Step. Generic, so each slice speaks of its own state and effects.
 */

export type Step<S, E> = readonly [state: S, effects: readonly E[]];
export type Next<S, E> = S | Step<S, E>;

export function isStep<S, E>(n: Next<S, E>): n is Step<S, E> {
  return Array.isArray(n);
}

export function toStep<S, E>(n: Next<S, E>): Step<S, E> {
  return isStep(n) ? n : [n, []];
}

export function stateOf<S, E>(n: Next<S, E>): S {
  return isStep(n) ? n[0] : n;
}

/** `n` with `effects` asked for after whatever it already asks for. */
export function withEffect<S, E>(n: Next<S, E>, ...effects: E[]): Step<S, E> {
  const [s, before] = toStep(n);
  return [s, before.length ? [...before, ...effects] : effects];
}

/** Runs `f` on the state of `n`, keeping the effects of both, in order. */
export function andThen<S, E>(n: Next<S, E>, f: (s: S) => Next<S, E>): Next<S, E> {
  if (!isStep(n)) return f(n);
  const [s, before] = n;
  const [after, more] = toStep(f(s));
  return [after, more.length ? [...before, ...more] : before];
}

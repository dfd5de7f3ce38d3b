import type { AppState } from "./appState.js";
import type { Effect } from "./effects.js";

/*
 * The Elm shape: an update gives the new state and the effects it asks for. A reducer that
 * asks for nothing returns the state alone (most do), so `Next` is either; the root `update`
 * always hands the app loop a Step.
 */

export type Step = readonly [state: AppState, effects: readonly Effect[]];
export type Next = AppState | Step;

const NONE: readonly Effect[] = Object.freeze([]);

export function isStep(n: Next): n is Step {
  return Array.isArray(n);
}

export function toStep(n: Next): Step {
  return isStep(n) ? n : [n, NONE];
}

export function stateOf(n: Next): AppState {
  return isStep(n) ? n[0] : n;
}

/** `n` with `effects` asked for after whatever it already asks for. */
export function withEffect(n: Next, ...effects: Effect[]): Step {
  const [s, before] = toStep(n);
  return [s, before.length ? [...before, ...effects] : effects];
}

/** Runs `f` on the state of `n`, keeping the effects of both, in order. */
export function andThen(n: Next, f: (s: AppState) => Next): Next {
  if (!isStep(n)) return f(n);
  const [s, before] = n;
  const [after, more] = toStep(f(s));
  return [after, more.length ? [...before, ...more] : before];
}

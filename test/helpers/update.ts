import { type AppAction, type AppState, update } from "../../src/browser/app/appReducer.js";
import type { Effect } from "../../src/browser/app/effects.js";

/** A state with every effect its actions asked for so far, in order: for reducer tests. */
export type Traced = AppState & { effects: readonly Effect[] };

/** Folds `actions` through the app's `update`, collecting the effects beside the state (never in it). */
export function reduce(s: AppState, ...actions: AppAction[]): Traced {
  const { effects: before = [], ...start } = s as Partial<Traced> & AppState;
  let state = start as AppState;
  const effects: Effect[] = [...before];
  for (const a of actions) {
    const [next, asked] = update(state, a);
    state = next;
    effects.push(...asked);
  }
  return { ...state, effects };
}

import type { ReaderEffect } from "../reader/readerEffects.js";
import type { TakeoutEffect } from "../takeout/takeoutTypes.js";
import type { TreeEffect } from "../tree/treeEffects.js";
import type { LifecycleEffect } from "./lifecycleTypes.js";

/** How the browser ended; the launcher acts on it after the terminal is restored. `new`: a new pi session in `cwd`. */
export type Outcome = { kind: "quit" } | { kind: "print"; path: string } | { kind: "resume"; path: string; cwd: string; fork?: boolean } | { kind: "new"; cwd: string };

/**
 * Requests the reducer makes and the effect runner carries out. The reducer does no
 * I/O: "resume" asks the runner to check that the cwd still exists first.
 */
export type Effect = { id: number; type: "resume"; path: string; cwd: string } | { id: number; type: "exit"; outcome: Outcome } | LifecycleEffect | TreeEffect | ReaderEffect | TakeoutEffect;

export type EffectRequest = Effect extends infer E ? (E extends Effect ? Omit<E, "id"> : never) : never;

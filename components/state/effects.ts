import type { ReaderEffect } from "../reader/readerEffects.js";
import type { TakeoutEffect } from "../takeout/takeoutTypes.js";
import type { TreeEffect } from "../tree/treeEffects.js";
import type { LifecycleEffect } from "./lifecycleTypes.js";

/** How the browser ended; the launcher acts on it after the terminal is restored. `new`: a new pi session in `cwd`. */
export type Outcome = { kind: "quit" } | { kind: "print"; path: string } | { kind: "resume"; path: string; cwd: string; fork?: boolean } | { kind: "new"; cwd: string };

/**
 * What `update` asks the effect runner to do (components/app/effectRunner.ts). Effects are
 * returned beside the new state, never kept in it: the reducer does no I/O, and the runner
 * turns each effect's result into an action. "resume" asks the runner to check that pi can
 * start and that the cwd still exists first.
 */
export type Effect = { type: "resume"; path: string; cwd: string } | { type: "exit"; outcome: Outcome } | LifecycleEffect | TreeEffect | ReaderEffect | TakeoutEffect;

import type { ReaderEffect } from "../reader/readerEffects.js";
import type { TakeoutEffect } from "../takeout/takeoutTypes.js";
import type { TreeEffect } from "../tree/treeEffects.js";
import type { LifecycleEffect } from "./lifecycleTypes.js";

import type { LeaveEffect } from "./outcome.js";

export type { Outcome } from "./outcome.js";

/**
 * What `update` asks the effect runner to do (components/app/effectRunner.ts). Effects are
 * returned beside the new state, never kept in it: the reducer does no I/O, and the runner
 * turns each effect's result into an action. "resume" asks the runner to check that pi can
 * start and that the cwd still exists first.
 */
export type Effect = LeaveEffect | LifecycleEffect | TreeEffect | ReaderEffect | TakeoutEffect;

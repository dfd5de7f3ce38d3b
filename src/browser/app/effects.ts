import type { ReaderEffect } from "../reader/readerEffects.js";
import type { TakeoutEffect } from "../copy-export/copyExportTypes.js";
import type { TreeEffect } from "../tree/treeEffects.js";
import type { LifecycleEffect } from "../lifecycle/lifecycleTypes.js";
import type { TrashEffect } from "../trash/trashTypes.js";

import type { LeaveEffect } from "../core/outcome.js";
import type { VerifyEffect } from "./verifyTypes.js";

export type { Outcome } from "../core/outcome.js";

/**
 * What `update` asks the effect runner to do (src/browser/app/effectRunner.ts). Effects are
 * returned beside the new state, never kept in it: the reducer does no I/O, and the runner
 * turns each effect's result into an action. "resume" asks the runner to check that pi can
 * start and that the cwd still exists first.
 */
export type Effect =
  LeaveEffect | LifecycleEffect | TreeEffect | ReaderEffect | TakeoutEffect | TrashEffect | VerifyEffect;

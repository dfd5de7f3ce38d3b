import type { SessionIndex } from "../../store/session-index.js";
import type { ExportFormat } from "./exportFile.js";

/** The I/O behind copy, export and `n`; run by copyExportRunner.ts. */
export type TakeoutEffect =
  /** Put `text` on the clipboard; `what` is the status line's "copied …". */
  | { type: "copy"; text: string; what: string }
  /** Copy a tree entry's text (read from the file first, at once: the status is set before the next key). */
  | { type: "copyEntry"; index: SessionIndex; entryId: string }
  | { type: "export"; path: string; format: ExportFormat; leafId?: string; dir: string }
  /** `n`: leave for a new pi session in `cwd` (if the folder is still there). */
  | { type: "newSession"; cwd: string };

const TYPES = new Set(["copy", "copyEntry", "export", "newSession"]);

export function isTakeoutEffect(e: { type: string }): e is TakeoutEffect {
  return TYPES.has(e.type);
}

/** The outcome of a takeout effect, for the status line. */
export type TakeoutAction = { type: "takeout.done"; text: string; tone: "info" | "note" | "error" };

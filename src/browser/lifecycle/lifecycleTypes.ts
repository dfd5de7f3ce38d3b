import type { TrashRecord } from "../../actions/trash/log.js";
import type { Diagnostic, SessionSummary } from "../../model/types.js";
import type { Mode } from "../keys/commands.js";
import type { ListedSession } from "../list/sessions.js";
import type { DeleteTarget, LifecycleLayer } from "../core/layers.js";
import type { StatusMessage } from "../core/status.js";

export type { DeleteTarget, LifecycleLayer } from "../core/layers.js";
export type { StatusMessage } from "../core/status.js";

/*
 * The lifecycle's state, actions and effects (rename, delete, undo, marks, status): a leaf
 * module, so appState.ts and lifecycle.ts both build on it without importing each other.
 */

/** A file's size and mtime right after we wrote it. */
export interface FileStamp {
  bytes: number;
  mtimeMs: number;
}

/**
 * The last undoable change of this run, for `u`: a delete (the trash records and the rows
 * they were), or a fork (`fork`: the file it wrote, which undo moves to the trash, itself
 * undoable then).
 */
export interface UndoBatch {
  records: TrashRecord[];
  sessions: ListedSession[];
  fork?: DeleteTarget;
}

export interface LifecycleState {
  /** Marked session paths (Space). */
  marks: ReadonlySet<string>;
  /** Result or error of the last action; cleared by the next key. */
  status?: StatusMessage;
  undo?: UndoBatch;
  /** The trash deletes go to; null when there is none (deletes are permanent); undefined until known. */
  trashDir?: string | null;
  /** Size and mtime of each file right after our own last write to it: a recent change that is ours is not pi's. */
  ownWrites: ReadonlyMap<string, FileStamp>;
}

export function initialLifecycle(): LifecycleState {
  return { marks: new Set(), ownWrites: new Map() };
}

export type LifecycleEffect =
  /** Where deletes go (asked once at start; answered by lifecycle.setup). */
  | { type: "trashLocation" }
  | { type: "rename"; path: string; name: string }
  /** `undoesFork`: `u` taking back a fork made in this run (the status says so). */
  | { type: "trash"; targets: DeleteTarget[]; undoesFork?: true }
  | { type: "deletePermanently"; targets: DeleteTarget[] }
  | { type: "restore"; records: TrashRecord[] };

export const LIFECYCLE_EFFECTS: ReadonlySet<string> = new Set([
  "trashLocation",
  "rename",
  "trash",
  "deletePermanently",
  "restore",
]);

export function isLifecycleEffect(e: { type: string }): e is LifecycleEffect {
  return LIFECYCLE_EFFECTS.has(e.type);
}

export type LifecycleAction =
  | { type: "lifecycle.setup"; trashDir: string | null }
  | { type: "lifecycle.renamed"; path: string; name: string; stamp?: FileStamp }
  | { type: "lifecycle.failed"; message: string }
  /** `failed.offerPermanent`: the trash could not take it, so a permanent delete may be offered. */
  | {
      type: "lifecycle.trashed";
      targets: DeleteTarget[];
      records: TrashRecord[];
      failed?: { path: string; message: string; offerPermanent: boolean };
      undoesFork?: true;
    }
  | { type: "lifecycle.deleted"; paths: string[]; error?: string }
  | { type: "lifecycle.restored"; paths: string[]; errors: string[] }
  | { type: "store.changes"; updated: SessionSummary[]; removed: string[]; diagnostics: Diagnostic[] };

export const LIFECYCLE_COMMANDS = [
  "session.rename",
  "session.delete",
  "session.undo",
  "session.mark",
  "rename.submit",
  "rename.cancel",
  "confirm.delete",
  "confirm.cancel",
  "confirm.yes",
  "confirm.permanent",
] as const;
export type LifecycleCommand = (typeof LIFECYCLE_COMMANDS)[number];

export function isLifecycleMode(m: Mode): boolean {
  return m === "rename" || m === "confirmDelete" || m === "confirm" || m === "confirmPermanent";
}

export function lifecycleMode(l: LifecycleLayer): Mode {
  if (l.kind === "rename") return "rename";
  // A delete to the trash asks pi's question (Enter or y); a permanent one asks for y, then Y.
  return l.step === "permanent" ? "confirmPermanent" : l.permanent ? "confirm" : "confirmDelete";
}

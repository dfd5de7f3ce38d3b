import { statSync } from "node:fs";
import { renameSession } from "../../actions/rename.js";
import {
  deletePermanently,
  restoreFile,
  trashLocation,
  trashSessions,
  type TrashRecord,
} from "../../actions/trash/index.js";
import type { DeleteTarget, FileStamp, LifecycleAction, LifecycleEffect } from "./lifecycleTypes.js";

/** The file operations behind rename, delete and undo; tests pass fakes. */
export interface LifecycleDeps {
  /** Writes the name as pi would (normalised there, once) and gives back what was written. */
  rename(path: string, name: string): Promise<{ name?: string }>;
  trash(targets: DeleteTarget[]): { records: TrashRecord[]; failed?: { path: string; error: Error } };
  deletePermanently(targets: DeleteTarget[]): string[];
  restore(record: TrashRecord): void;
  /** The trash folder, or undefined when there is none. */
  trashLocation(): string | undefined;
  /** Size and mtime of a file (after our own write to it); undefined if it cannot be read. */
  stamp?(path: string): FileStamp | undefined;
}

export function fileStamp(path: string): FileStamp | undefined {
  try {
    const st = statSync(path);
    return { bytes: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return undefined;
  }
}

export const realLifecycle: LifecycleDeps = {
  rename: renameSession,
  trash: (targets) => trashSessions(targets),
  deletePermanently,
  restore: restoreFile,
  trashLocation: () => trashLocation(),
  stamp: fileStamp,
};

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Errors name files by path; the status line is one line, so name the session by its title instead. */
const about = (msg: string, path: string, title: string | undefined) =>
  title ? msg.split(path).join(`"${title}"`) : msg;

/** A trash failure that a permanent delete could get past (not a changed or vanished file). */
function trashCannotTakeIt(err: Error): boolean {
  return err.name === "TrashUnavailable";
}

/** Carries out one rename, delete, restore or trash look-up; results come back as lifecycle.* actions. `afterWrite` runs after each own write so the store watcher looks at once. */
export function runLifecycleEffect(
  e: LifecycleEffect,
  deps: LifecycleDeps,
  dispatch: (a: LifecycleAction) => void,
  afterWrite: () => void,
): void {
  switch (e.type) {
    case "trashLocation":
      dispatch({ type: "lifecycle.setup", trashDir: deps.trashLocation() ?? null });
      return;
    case "rename": {
      deps.rename(e.path, e.name).then(
        (written) => {
          dispatch({ type: "lifecycle.renamed", path: e.path, name: written.name ?? "", stamp: deps.stamp?.(e.path) });
          afterWrite();
        },
        (err: unknown) => dispatch({ type: "lifecycle.failed", message: `rename failed: ${message(err)}` }),
      );
      return;
    }
    case "trash": {
      let result: ReturnType<LifecycleDeps["trash"]>;
      try {
        result = deps.trash(e.targets);
      } catch (err) {
        result = {
          records: [],
          failed: { path: e.targets[0]?.path ?? "", error: err instanceof Error ? err : new Error(String(err)) },
        };
      }
      const f = result.failed;
      dispatch({
        type: "lifecycle.trashed",
        targets: e.targets,
        records: result.records,
        failed: f && {
          path: f.path,
          message: about(f.error.message, f.path, e.targets.find((t) => t.path === f.path)?.title),
          offerPermanent: trashCannotTakeIt(f.error),
        },
        ...(e.undoesFork ? { undoesFork: true as const } : {}),
      });
      afterWrite();
      return;
    }
    case "deletePermanently": {
      const paths: string[] = [];
      let error: string | undefined;
      for (const t of e.targets) {
        try {
          paths.push(...deps.deletePermanently([t]));
        } catch (err) {
          error = about(message(err), t.path, t.title);
          break;
        }
      }
      dispatch({ type: "lifecycle.deleted", paths, error });
      afterWrite();
      return;
    }
    case "restore": {
      const paths: string[] = [];
      const errors: string[] = [];
      for (const r of e.records) {
        try {
          deps.restore(r);
          paths.push(r.original);
        } catch (err) {
          errors.push(about(message(err), r.original, r.title));
        }
      }
      dispatch({ type: "lifecycle.restored", paths, errors });
      afterWrite();
      return;
    }
  }
}

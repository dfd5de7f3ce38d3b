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

/** A result now, or later (another machine's session is changed there: src/remote). */
type Soon<T> = T | Promise<T>;

/** Hands `r` to `then` at once when it is a value (the local file operations), else when it comes. */
function when<T>(r: () => Soon<T>, then: (v: T) => void, fail: (e: unknown) => void): void {
  let v: Soon<T>;
  try {
    v = r();
  } catch (e) {
    fail(e);
    return;
  }
  if (v instanceof Promise) v.then(then, fail);
  else then(v);
}

/** The file operations behind rename, delete and undo; tests pass fakes. */
export interface LifecycleDeps {
  /** Writes the name as pi would (normalised there, once) and gives back what was written. */
  rename(path: string, name: string): Promise<{ name?: string; stamp?: FileStamp }>;
  trash(targets: DeleteTarget[]): Soon<{ records: TrashRecord[]; failed?: { path: string; error: Error } }>;
  deletePermanently(targets: DeleteTarget[]): Soon<string[]>;
  restore(record: TrashRecord): Soon<void>;
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
          const stamp = written.stamp ?? deps.stamp?.(e.path);
          dispatch({ type: "lifecycle.renamed", path: e.path, name: written.name ?? "", stamp });
          afterWrite();
        },
        (err: unknown) => dispatch({ type: "lifecycle.failed", message: `rename failed: ${message(err)}` }),
      );
      return;
    }
    case "trash": {
      const done = (result: Awaited<ReturnType<LifecycleDeps["trash"]>>) => {
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
      };
      when(
        () => deps.trash(e.targets),
        done,
        (err) =>
          done({
            records: [],
            failed: { path: e.targets[0]?.path ?? "", error: err instanceof Error ? err : new Error(String(err)) },
          }),
      );
      return;
    }
    case "deletePermanently": {
      const paths: string[] = [];
      // One after the other, stopping at the first that fails.
      const next = (i: number) => {
        const t = e.targets[i];
        if (!t) return finish();
        when(
          () => deps.deletePermanently([t]),
          (done) => {
            paths.push(...done);
            next(i + 1);
          },
          (err) => finish(about(message(err), t.path, t.title)),
        );
      };
      const finish = (error?: string) => {
        dispatch({ type: "lifecycle.deleted", paths, error });
        afterWrite();
      };
      next(0);
      return;
    }
    case "restore": {
      const paths: string[] = [];
      const errors: string[] = [];
      const next = (i: number) => {
        const r = e.records[i];
        if (!r) {
          dispatch({ type: "lifecycle.restored", paths, errors });
          afterWrite();
          return;
        }
        when(
          () => deps.restore(r),
          () => {
            paths.push(r.original);
            next(i + 1);
          },
          (err) => {
            errors.push(about(message(err), r.original, r.title));
            next(i + 1);
          },
        );
      };
      next(0);
      return;
    }
  }
}

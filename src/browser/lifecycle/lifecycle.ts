import type { Key } from "../keys/key.js";
import { formatBytes, plural } from "../../text/format.js";
import { sessionTitle } from "../../model/session-title.js";
import { sanitizeLine } from "../../text/sanitize.js";
import { normalizeName } from "../../model/session-name.js";
import type { CommandId } from "../keys/commands.js";
import type { Keymap } from "../keys/keymap.js";
import { explicitYes } from "../keys/explicitYes.js";
import { type Layered, pop, push, replaceTop, topLayer } from "../core/layers.js";
import { type ListState, moveTo, refresh, selectedSession } from "../list/list.js";
import { type Next, withEffect } from "../core/next.js";
import { say, type WithStatus } from "../core/status.js";
import {
  type DeleteTarget,
  type FileStamp,
  type LifecycleAction,
  type LifecycleCommand,
  type LifecycleEffect,
  type LifecycleState,
} from "./lifecycleTypes.js";

// The state, actions and effects live in a leaf module; consumers may take them from here.
export * from "./lifecycleTypes.js";
import { type ListedSession, mergeBatch } from "../list/sessions.js";
import * as text from "../core/textInput.js";

/*
 * Rename, delete (trash, or permanent after a second confirmation), undo, marks,
 * live store updates and the status line. Pure state transitions; the I/O is
 * requested as effects and carried out by lifecycleEffects.ts.
 */

/** What rename, delete, undo and marks read and write: the list, the layers, the status, their own state, and what protects a session. */
export interface LifecycleHost extends ListState, LifecycleState, Layered, WithStatus {
  keymap: Keymap;
  /** The session open in the launching pi: never deleted from here. */
  openInPi?: string;
}

type LifecycleNext<S> = Next<S, LifecycleEffect>;

/** Remember our write to `path` (and show the session with the size and mtime it now has). */
export function recordOwnWrite<S extends ListState & Pick<LifecycleState, "ownWrites">>(
  s: S,
  path: string,
  stamp: FileStamp | undefined,
): S {
  if (!stamp) return s;
  const x = s.sessions.get(path);
  const sessions = x ? new Map(s.sessions).set(path, { ...x, bytes: stamp.bytes, mtimeMs: stamp.mtimeMs }) : s.sessions;
  return { ...s, sessions, ownWrites: new Map(s.ownWrites).set(path, stamp) };
}

/** The file is as our last write left it. */
export function isOwnWrite(
  s: Pick<LifecycleState, "ownWrites">,
  f: { path: string; bytes: number; mtimeMs: number },
): boolean {
  const w = s.ownWrites.get(f.path);
  return !!w && w.bytes === f.bytes && w.mtimeMs === f.mtimeMs;
}

// ---- helpers ----

/** A listed session as a delete (or an undone fork) takes it: `ours` when our own write was its last change. */
export function deleteTarget(state: Pick<LifecycleState, "ownWrites">, s: ListedSession): DeleteTarget {
  return {
    path: s.path,
    sessionId: s.id,
    title: sessionTitle(s),
    cwd: s.cwd,
    bytes: s.bytes,
    mtimeMs: s.mtimeMs,
    ours: isOwnWrite(state, s),
    ...(s.host !== undefined ? { host: s.host, where: `${s.host}:${s.remotePath}` } : {}),
  };
}

export function totalBytes(targets: readonly DeleteTarget[]): number {
  return targets.reduce((n, t) => n + t.bytes, 0);
}

function withoutPaths<S extends LifecycleHost>(s: S, paths: readonly string[]): S {
  if (paths.length === 0) return s;
  const sessions = new Map(s.sessions);
  let marks = s.marks;
  for (const p of paths) {
    sessions.delete(p);
    if (marks.has(p)) {
      if (marks === s.marks) marks = new Set(marks);
      (marks as Set<string>).delete(p);
    }
  }
  return { ...s, sessions, marks };
}

// ---- commands ----

function openRename<S extends LifecycleHost>(s: S): S {
  const sel = selectedSession(s);
  if (!sel) return s;
  const value = sanitizeLine(sel.name ?? "");
  return push(s, {
    kind: "rename",
    path: sel.path,
    title: sessionTitle(sel),
    input: { value, cursor: Array.from(value).length },
    mtimeMs: sel.mtimeMs,
    ours: isOwnWrite(s, sel),
  });
}

/** d (to the trash) or, `permanent`, D: both start with the same first confirmation. */
export function openDelete<S extends LifecycleHost>(s: S, permanent = false): S {
  // As pi's /resume: the session open in the pi that launched us is never deleted.
  const open = s.openInPi;
  if (open && (s.marks.size > 0 ? s.marks.has(open) : selectedSession(s)?.path === open)) {
    return say(s, "That session is open in pi; it can't be deleted from here", "error");
  }
  const bulk = s.marks.size > 0;
  const targets: DeleteTarget[] = [];
  let hidden = 0;
  if (bulk) {
    const shown = new Set(s.rows.map((r) => r.session.path));
    for (const p of s.marks) {
      const x = s.sessions.get(p);
      if (!x) continue;
      targets.push(deleteTarget(s, x));
      if (!shown.has(p)) hidden++;
    }
    if (targets.length === 0) return { ...s, marks: new Set() };
  } else {
    const sel = selectedSession(s);
    if (!sel) return s;
    targets.push(deleteTarget(s, sel));
  }
  return push(s, {
    kind: "delete",
    step: "confirm",
    targets,
    bulk,
    ...(permanent ? { permanent } : {}),
    ...(hidden > 0 ? { hidden } : {}),
  });
}

function toggleMark<S extends LifecycleHost>(s: S): S {
  const sel = selectedSession(s);
  if (!sel) return s;
  const marks = new Set(s.marks);
  if (marks.has(sel.path)) marks.delete(sel.path);
  else marks.add(sel.path);
  return moveTo({ ...s, marks }, s.cursor + 1);
}

function undo<S extends LifecycleHost>(s: S): LifecycleNext<S> {
  // Undo is this run's; what earlier runs deleted is in the trash view, which outlasts them.
  if (s.undo?.fork)
    return withEffect({ ...s, undo: undefined }, { type: "trash", targets: [s.undo.fork], undoesFork: true });
  if (!s.undo || s.undo.records.length === 0) return say(s, "nothing to undo in this run · X shows the trash", "note");
  return withEffect(s, { type: "restore", records: s.undo.records });
}

function submitRename<S extends LifecycleHost>(s: S): LifecycleNext<S> {
  const top = topLayer(s);
  if (top?.kind !== "rename") return s;
  // Nothing to write when the name stays as it is (the field starts with it, sanitized).
  const was = s.sessions.get(top.path)?.name ?? "";
  const name = normalizeName(top.input.value);
  if (name === normalizeName(was) || name === normalizeName(sanitizeLine(was)))
    return say(pop(s), was ? "Name unchanged" : "No name to clear", "note");
  return withEffect(pop(s), { type: "rename", path: top.path, name: top.input.value });
}

function confirmDelete<S extends LifecycleHost>(s: S): LifecycleNext<S> {
  const top = topLayer(s);
  if (top?.kind !== "delete") return s;
  // No trash here: never delete on the first confirmation; ask again, explicitly.
  if (top.step === "confirm" && (s.trashDir === null || top.permanent))
    return replaceTop(s, { ...top, step: "permanent" });
  return withEffect(pop(s), { type: top.step === "confirm" ? "trash" : "deletePermanently", targets: top.targets });
}

export function lifecycleCommand<S extends LifecycleHost>(s: S, c: LifecycleCommand): LifecycleNext<S> {
  switch (c) {
    case "session.rename":
      return openRename(s);
    case "session.delete":
      return openDelete(s);
    case "session.undo":
      return undo(s);
    case "session.mark":
      return toggleMark(s);
    case "rename.submit":
      return submitRename(s);
    case "rename.cancel":
      return topLayer(s)?.kind === "rename" ? pop(s) : s;
    case "confirm.delete":
    case "confirm.yes":
    case "confirm.permanent":
      return confirmDelete(s);
    case "confirm.cancel":
      return topLayer(s)?.kind === "delete" ? say(pop(s), "not deleted", "note") : s;
  }
}

/** Esc in the list: marks are cleared before Esc quits. Returns null when there are none. */
export function clearMarks<S extends LifecycleHost>(s: S): S | null {
  return s.marks.size > 0 ? { ...s, marks: new Set() } : null;
}

/** The rename dialog's field set to `input`. */
export function renameInput<S extends LifecycleHost>(s: S, input: text.TextInput): S {
  const top = topLayer(s);
  return top?.kind === "rename" && input !== top.input ? replaceTop(s, { ...top, input }) : s;
}

/** Keys while a rename or delete dialog is up: `c` is the key's command, as the root key router looked it up. */
export function lifecycleKey<S extends LifecycleHost>(
  s: S,
  c: CommandId | null | undefined,
  input: string,
  key: Key,
): LifecycleNext<S> {
  const top = topLayer(s);
  if (top?.kind === "rename") {
    if (c === "rename.submit") return submitRename(s);
    if (c === "rename.cancel" || c === "app.interrupt") return pop(s);
    return s; // typing and editing go through the one text-field path (appReducer)
  }
  if (top?.kind === "delete" && !top.permanent && top.step === "confirm") {
    // pi's question (its /resume): Enter or y deletes, Esc or n cancels (Ctrl+C too), and
    // every other key is ignored while it asks, so a held Ctrl+D asks once.
    if (c === "confirm.delete") return confirmDelete(s);
    if (c === "confirm.cancel" || c === "app.interrupt") return say(pop(s), "not deleted", "note");
    return s;
  }
  if (top?.kind === "delete") {
    // The second question of a permanent delete takes Y, the first y: never one key for both.
    if (explicitYes(c, key, top.step === "permanent" ? "confirm.permanent" : "confirm.yes")) return confirmDelete(s);
    return say(pop(s), "not deleted", "note");
  }
  return s;
}

// ---- results and store changes ----

export function lifecycleReducer<S extends LifecycleHost>(s: S, a: LifecycleAction): S {
  switch (a.type) {
    case "lifecycle.setup":
      // Known already (the first state has it): the same state, no render.
      return a.trashDir === s.trashDir ? s : { ...s, trashDir: a.trashDir };
    case "lifecycle.renamed": {
      const x = s.sessions.get(a.path);
      const next = x ? new Map(s.sessions).set(a.path, { ...x, name: a.name || undefined }) : s.sessions;
      const n = recordOwnWrite({ ...s, sessions: next }, a.path, a.stamp);
      return say(refresh(n), a.name ? `Renamed to "${sanitizeLine(a.name)}"` : "Name cleared");
    }
    case "lifecycle.failed":
      return say(s, a.message, "error");
    case "lifecycle.trashed": {
      const gone = a.records.map((r) => r.original);
      const sessions = gone.map((p) => s.sessions.get(p)).filter((x): x is ListedSession => !!x);
      let n = withoutPaths(s, gone);
      if (a.records.length > 0) n = { ...n, undo: { records: a.records, sessions } };
      n = refresh(n);
      // Undoing a fork is said as such: it went to the trash, and u (or X) brings it back.
      const moved =
        a.records.length === 0
          ? ""
          : a.undoesFork
            ? "Fork undone (moved to the trash) — u brings it back"
            : `Moved ${plural(a.records.length, "session")} to the trash — u to undo`;
      if (!a.failed) return say(n, moved);
      n = say(n, `${a.failed.message}${moved ? ` (${moved})` : ""}`, "error");
      if (!a.failed.offerPermanent) return n;
      const done = new Set(gone);
      const rest = a.targets.filter((t) => !done.has(t.path));
      if (rest.length === 0) return n;
      return {
        ...n,
        stack: [
          ...n.stack,
          { kind: "delete", step: "permanent", targets: rest, bulk: rest.length > 1, reason: a.failed.message },
        ],
      };
    }
    case "lifecycle.deleted": {
      const n = refresh(withoutPaths(s, a.paths));
      const done = a.paths.length > 0 ? `Deleted ${plural(a.paths.length, "session")} permanently` : "";
      if (a.error) return say(n, done ? `${a.error} (${done})` : a.error, "error");
      return say(n, done);
    }
    case "lifecycle.restored": {
      const back = new Set(a.paths);
      const u = s.undo;
      const sessions = new Map(s.sessions);
      for (const x of u?.sessions ?? []) if (back.has(x.path)) sessions.set(x.path, x);
      const rest = u ? u.records.filter((r) => !back.has(r.original)) : [];
      const undoLeft =
        u && rest.length > 0 ? { records: rest, sessions: u.sessions.filter((x) => !back.has(x.path)) } : undefined;
      // The restored session is selected, so it is seen coming back.
      const selectedPath = a.paths[0] ?? s.selectedPath;
      const n = refresh({ ...s, sessions, undo: undoLeft, selectedPath });
      const ok = a.paths.length > 0 ? `Restored ${plural(a.paths.length, "session")}` : "";
      if (a.errors.length > 0) return say(n, [ok, ...a.errors].filter(Boolean).join("; "), "error");
      return say(n, ok);
    }
    case "store.changes": {
      const merged = mergeBatch(s.sessions, [], a.updated, a.diagnostics);
      return refresh(
        withoutPaths(
          { ...s, sessions: merged },
          a.removed.filter((p) => merged.has(p)),
        ),
      );
    }
  }
}

/** The bulk summary: "3 sessions (12.3 KB)". */
export function batchSummary(targets: readonly DeleteTarget[]): string {
  return `${plural(targets.length, "session")} (${formatBytes(totalBytes(targets))})`;
}

import type { Key } from "../keys/key.js";
import type { CommandId } from "../keys/commands.js";
import { explicitYes } from "../keys/explicitYes.js";
import { type Layered, pop, push, replaceTop, topLayer } from "../core/layers.js";
import { type Next, withEffect } from "../core/next.js";
import { say, type WithStatus } from "../core/status.js";
import type { LifecycleEffect, LifecycleState } from "../lifecycle/lifecycleTypes.js";
import {
  type TrashAction,
  type TrashCommandId,
  type TrashEffect,
  type TrashItem,
  type TrashLayer,
  trashTitle,
} from "./trashTypes.js";

export * from "./trashTypes.js";

/*
 * The trash view (`X`): this store's trashed sessions, newest first, read from the trash
 * log, so it outlasts the run that deleted them. `u` puts one back (the lifecycle's own
 * restore, the same as undo), `D` deletes one for good behind two confirmations where only
 * `y` goes on. Pure: reading the log and deleting are effects (trashRunner.ts).
 */

/** What the trash view reads and writes: the layers, the status, the undo batch, where the store is and its page size. */
export interface TrashHost extends Layered, WithStatus, Pick<LifecycleState, "undo"> {
  storeDir?: string;
  pageSize: number;
}

type TrashNext<S> = Next<S, TrashEffect | LifecycleEffect>;

/** The trash view's layer when it is on top. */
export function trashLayer(s: Layered): TrashLayer | undefined {
  const top = topLayer(s);
  return top?.kind === "trash" ? top : undefined;
}

/** The trashed session under the cursor. */
export function selectedTrashed(l: TrashLayer): TrashItem | undefined {
  return l.items?.[Math.min(l.cursor, l.items.length - 1)];
}

function moveTrash<S extends TrashHost>(s: S, l: TrashLayer, to: number): S {
  const last = Math.max(0, (l.items?.length ?? 0) - 1);
  const cursor = Math.max(0, Math.min(last, to));
  return cursor === l.cursor ? s : replaceTop(s, { ...l, cursor });
}

export function runTrashCommand<S extends TrashHost>(s: S, c: TrashCommandId): TrashNext<S> {
  if (c === "trash.open") {
    if (trashLayer(s)) return s;
    if (!s.storeDir) return say(s, "no store to show the trash of", "note");
    return withEffect(push(s, { kind: "trash", items: null, cursor: 0 }), { type: "trash.list", storeDir: s.storeDir });
  }
  const l = trashLayer(s);
  if (!l) return s;
  // Pages of the rows the view shows (as the list pages its own).
  const rows = l.page ?? s.pageSize;
  const page = Math.max(1, rows - 1);
  const half = Math.max(1, Math.floor(rows / 2));
  switch (c) {
    case "trash.close":
      return pop(s);
    case "trash.up":
      return moveTrash(s, l, l.cursor - 1);
    case "trash.down":
      return moveTrash(s, l, l.cursor + 1);
    case "trash.pageUp":
      return moveTrash(s, l, l.cursor - page);
    case "trash.pageDown":
      return moveTrash(s, l, l.cursor + page);
    case "trash.halfUp":
      return moveTrash(s, l, l.cursor - half);
    case "trash.halfDown":
      return moveTrash(s, l, l.cursor + half);
    case "trash.top":
      return moveTrash(s, l, 0);
    case "trash.bottom":
      return moveTrash(s, l, Number.MAX_SAFE_INTEGER);
    case "trash.restore": {
      const r = selectedTrashed(l);
      return r ? withEffect(s, { type: "restore", records: [r] }) : say(s, "the trash is empty", "note");
    }
    case "trash.purge": {
      const r = selectedTrashed(l);
      return r ? replaceTop(s, { ...l, purge: { step: 1, record: r } }) : say(s, "the trash is empty", "note");
    }
  }
}

/**
 * A key while a delete for good is being confirmed: only `y` (never Enter, whatever the key
 * map says) goes on, first to the second question, then to the delete; any other key cancels.
 */
export function trashConfirmKey<S extends TrashHost>(s: S, c: CommandId | null | undefined, key: Key): TrashNext<S> {
  const l = trashLayer(s);
  if (!l?.purge) return s;
  // The second question takes Y: one held or double-tapped y never answers both.
  if (!explicitYes(c, key, l.purge.step === 2 ? "confirm.permanent" : "confirm.yes"))
    return say(replaceTop(s, { ...l, purge: undefined }), "not deleted", "note");
  if (l.purge.step === 1) return replaceTop(s, { ...l, purge: { ...l.purge, step: 2 } });
  return withEffect(replaceTop(s, { ...l, purge: undefined }), { type: "trash.purge", record: l.purge.record });
}

/** The view without the trashed files at `gone` (restored or deleted for good), its cursor kept in range. */
export function withoutTrashed<S extends Layered>(s: S, gone: (r: TrashItem) => boolean): S {
  const l = trashLayer(s);
  if (!l?.items) return s;
  const items = l.items.filter((r) => !gone(r));
  if (items.length === l.items.length) return s;
  return replaceTop(s, { ...l, items, cursor: Math.max(0, Math.min(l.cursor, items.length - 1)) });
}

export function trashReducer<S extends TrashHost>(s: S, a: TrashAction): S {
  switch (a.type) {
    case "trash.view": {
      const l = trashLayer(s);
      return l && l.page !== a.page ? replaceTop(s, { ...l, page: a.page }) : s;
    }
    case "trash.listed": {
      const l = trashLayer(s);
      if (!l) return s;
      // Read again after a restore: the cursor stays where it was, within the rows left.
      const cursor = l.items === null ? 0 : Math.max(0, Math.min(l.cursor, a.records.length - 1));
      const n = replaceTop(s, { ...l, items: a.records, cursor });
      return a.error ? say(n, a.error, "error") : n;
    }
    case "trash.purged": {
      if (a.error) return say(s, a.error, "error");
      // Two machines' trash may hold files of one path: the record's original (a host's: its copy's path here) tells them apart.
      const same = (r: TrashItem) => r.trashedFile === a.record.trashedFile && r.original === a.record.original;
      const n = withoutTrashed(s, same);
      // An undo of this run must not offer what is gone for good.
      const rest = n.undo?.records.filter((r) => !same(r));
      const undo = n.undo && rest && rest.length > 0 ? { ...n.undo, records: rest } : undefined;
      return say({ ...n, undo }, `Deleted "${trashTitle(a.record)}" for good`);
    }
  }
}

import { basename } from "node:path";
import type { CommandId } from "../keys/commands.js";

export type { TrashItem, TrashLayer } from "../core/layers.js";
import type { TrashItem } from "../core/layers.js";

/*
 * The trash view's effects and actions: a leaf module, so the app's effect list and the
 * slice's reducer both build on it without importing each other.
 */

export type TrashEffect =
  /** Read this store's trashed sessions (answered by trash.listed). */
  | { type: "trash.list"; storeDir: string }
  /** Delete one trashed session for good (answered by trash.purged). */
  | { type: "trash.purge"; record: TrashItem };

export function isTrashEffect(e: { type: string }): e is TrashEffect {
  return e.type === "trash.list" || e.type === "trash.purge";
}

export type TrashAction =
  | { type: "trash.listed"; records: TrashItem[]; error?: string }
  /** The view's rows, as it lays them out: its pages are that long. */
  | { type: "trash.view"; page: number }
  | { type: "trash.purged"; record: TrashItem; error?: string };

export function isTrashAction(a: { type: string }): a is TrashAction {
  return a.type === "trash.listed" || a.type === "trash.purged" || a.type === "trash.view";
}

/** What a trashed session is called (unsanitized: session text): its title, else its file's name. */
export function trashTitle(r: TrashItem): string {
  return r.title || basename(r.original);
}

export type TrashCommandId = Extract<CommandId, `trash.${string}`>;

export function isTrashCommand(c: CommandId): c is TrashCommandId {
  return c.startsWith("trash.");
}

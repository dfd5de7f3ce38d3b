import { basename, dirname } from "node:path";
import { type TrashItem, trashTitle } from "../../src/browser/trash/trashTypes.js";
import { formatAgo, formatBytes } from "../../src/text/format.js";
import { hostPathToWidth } from "../../src/text/host-path.js";
import { displayWidth, padToWidth, sanitizeLine, truncateToWidth } from "../../src/text/sanitize.js";

/** When the session went to the trash: the spec's DeletionDate is local time, no zone. */
export function deletedAt(r: TrashItem): Date | undefined {
  const d = new Date(r.deletedAt);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/**
 * A trashed session's row: its title (or file name), its folder (the header's cwd, else the
 * store folder's name as pi encodes it),
 * and, right-aligned, how long ago it was deleted and its size. Sanitized: the title is
 * session text.
 */
export function trashRowText(r: TrashItem, width: number, now: number): string {
  const when = deletedAt(r);
  const ago = when ? formatAgo(when, now) : "?";
  const right = `  ${padToWidth(ago, 8, "right")}  ${padToWidth(formatBytes(r.bytes), 8, "right")}`;
  // A host's: named as the list names its folders, `devbox:/folder`, the host kept when the path is cut.
  const host = r.host ? sanitizeLine(r.host) : undefined;
  const path = sanitizeLine(r.cwd || basename(dirname(r.hostPath ?? r.original)));
  const folder = host ? `${host}:${path}` : path;
  const title = sanitizeLine(trashTitle(r));
  const room = Math.max(0, width - displayWidth(right));
  // Narrow: the folder goes before the title is cut short.
  const folderW = room >= 50 ? Math.min(displayWidth(folder), Math.floor(room * 0.4)) : 0;
  const titleW = Math.max(0, room - (folderW > 0 ? folderW + 2 : 0));
  const left =
    padToWidth(truncateToWidth(title, titleW), titleW) +
    (folderW > 0 ? "  " + hostPathToWidth(host, path, folderW) : "");
  return truncateToWidth(padToWidth(left, room) + right, width);
}

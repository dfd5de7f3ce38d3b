import { dirname, resolve } from "node:path";
import { insideFolder } from "../../actions/trash/index.js";
import { shellQuote } from "../../browser/copy-export/copyText.js";
import { sanitizeLine } from "../../text/sanitize.js";

/** The deepest folder holding every one of these files. */
function commonFolder(paths: string[]): string {
  let dir = dirname(resolve(paths[0]));
  while (!paths.every((p) => insideFolder(dir, p))) {
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return dir;
}

/**
 * The command that brings back what a delete just trashed. `restore --last` looks only at
 * the sessions of the store it runs on, so it needs the store the files were in: the
 * folder given as --session-dir, else the store found without it (what a plain `restore`
 * finds too), else the folder that holds them all. Shell-quoted, then sanitized for the
 * terminal it is printed on.
 */
export function restoreHint(originals: string[], stores: { named?: string; found?: string }): string {
  const holdsAll = (dir: string | undefined) => dir !== undefined && originals.every((p) => insideFolder(dir, p));
  const base = "pi-sessions restore --last";
  if (!originals.length) return base;
  if (!holdsAll(stores.named) && holdsAll(stores.found)) return base;
  const dir = holdsAll(stores.named) ? stores.named! : commonFolder(originals);
  return sanitizeLine(`${base} --session-dir ${shellQuote(dir)}`);
}

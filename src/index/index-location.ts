import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { userCacheDir } from "../launcher/cache-dir.js";

/** False when the user turned the index off (PI_SESSIONS_INDEX=0). */
export function indexWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.PI_SESSIONS_INDEX !== "0";
}

/** The home folder as `env` says (a command run with another environment gets its own), else the OS's. */
function home(env: NodeJS.ProcessEnv): string {
  if (env !== process.env) return env.HOME || env.USERPROFILE || "";
  try {
    return homedir();
  } catch {
    return "";
  }
}

/**
 * Where the index of the store at `storeDir` lives: one file per store, named by a hash of
 * the store's path as given (made absolute), under the user's cache folder
 * (…/pi-sessions/index/). Not its real path: the index keeps each file by its path, so a
 * store reached by two paths (a symlink) shared one index whose every file looked gone to
 * the other spelling, and each switch threw its text index away. Two spellings, two indexes.
 * Undefined when there is no cache folder.
 */
export function indexPathFor(storeDir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const root = userCacheDir(env, home(env), process.platform);
  if (!root) return undefined;
  const key = createHash("sha256").update(resolve(storeDir)).digest("hex").slice(0, 16);
  return join(root, "index", `store-${key}.sqlite`);
}

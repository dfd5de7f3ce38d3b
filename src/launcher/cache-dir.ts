import { join } from "node:path";

/**
 * The folder for Node's compile cache of our program (module.enableCompileCache), or
 * undefined when caching is off (PI_SESSIONS_CODE_CACHE=0) or there is no home to put it
 * in. PI_SESSIONS_CACHE_DIR overrides it; the default is the platform's per-user cache folder.
 * Node checks the cache itself (source hash, Node version) and rewrites what does not fit.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform): string | undefined {
  if (env.PI_SESSIONS_CODE_CACHE === "0") return undefined;
  return (
    env.PI_SESSIONS_CACHE_DIR ||
    (platform === "win32" && env.LOCALAPPDATA ? join(env.LOCALAPPDATA, "pi-sessions") : undefined) ||
    (platform === "darwin" && home ? join(home, "Library", "Caches", "pi-sessions") : undefined) ||
    (env.XDG_CACHE_HOME ? join(env.XDG_CACHE_HOME, "pi-sessions") : undefined) ||
    (home ? join(home, ".cache", "pi-sessions") : undefined)
  );
}

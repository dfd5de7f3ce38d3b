import { isAbsolute, join, win32 } from "node:path";

/**
 * The per-user cache folder of pi-sessions: PI_SESSIONS_CACHE_DIR when set, else the
 * platform's (XDG_CACHE_HOME or ~/.cache on Linux); undefined when there is no home.
 * A relative XDG_CACHE_HOME (or LOCALAPPDATA) is ignored, as the XDG Base Directory
 * specification says: it would put the cache into whatever folder a command runs in.
 * It holds Node's compile cache of our program and the persistent index (src/index).
 */
export function userCacheDir(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform): string | undefined {
  const localAppData = env.LOCALAPPDATA && win32.isAbsolute(env.LOCALAPPDATA) ? env.LOCALAPPDATA : undefined;
  const xdg = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : undefined;
  return (
    env.PI_SESSIONS_CACHE_DIR ||
    (platform === "win32" && localAppData ? join(localAppData, "pi-sessions") : undefined) ||
    (platform === "darwin" && home ? join(home, "Library", "Caches", "pi-sessions") : undefined) ||
    (xdg ? join(xdg, "pi-sessions") : undefined) ||
    (home ? join(home, ".cache", "pi-sessions") : undefined)
  );
}

/**
 * The folder for Node's compile cache of our program (module.enableCompileCache), or
 * undefined when caching is off (PI_SESSIONS_CODE_CACHE=0) or there is no home to put it in.
 * Node checks the cache itself (source hash, Node version) and rewrites what does not fit.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform): string | undefined {
  if (env.PI_SESSIONS_CODE_CACHE === "0") return undefined;
  return userCacheDir(env, home, platform);
}

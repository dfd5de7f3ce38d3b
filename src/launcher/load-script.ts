import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { Script } from "node:vm";
import { decodeCache, encodeCache, identify, writeCacheFile } from "./code-cache.js";

/** off: no cache path; none: no usable cache file; rejected: V8 refused it; accepted: used. */
export type CacheStatus = "off" | "none" | "rejected" | "accepted";

export interface LoadedScript<T> {
  exports: T;
  status: CacheStatus;
  /**
   * Writes a fresh cache unless the one loaded was used. Call it once the program has done
   * its start-up work: V8 then includes every function compiled so far. Never throws.
   */
  save(): boolean;
}

/** The names a CommonJS bundle expects in scope; `__piSessionsUrl` stands for import.meta.url. */
const PARAMS = "exports, require, module, __filename, __dirname, __piSessionsUrl";

/**
 * Runs a CommonJS bundle as Node would, but compiled through `vm.Script` so V8 can start
 * from a code cache. Node 20 has no compile cache for ES modules; with one, the launch
 * skips parsing and most lazy compilation of Ink and React (tens of ms).
 */
export function loadScript<T>(file: string, cachePath?: string): LoadedScript<T> {
  const source = readFileSync(file);
  const id = identify(source);
  let cached: Buffer | undefined;
  if (cachePath) {
    try {
      cached = decodeCache(id, readFileSync(cachePath));
    } catch {
      // no cache yet, or unreadable: compile from source
    }
  }
  const script = new Script(`(function (${PARAMS}) {${source.toString("utf8")}\n})`, { filename: file, cachedData: cached });
  const status: CacheStatus = !cachePath ? "off" : !cached ? "none" : script.cachedDataRejected ? "rejected" : "accepted";
  const module = { exports: {} as T };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(file), module, file, dirname(file), pathToFileURL(file).href);
  return {
    exports: module.exports,
    status,
    save() {
      if (!cachePath || status === "accepted") return false;
      try {
        writeCacheFile(cachePath, encodeCache(id, script.createCachedData()));
        return true;
      } catch {
        return false; // a cache is an optimisation: a read-only home just goes without
      }
    },
  };
}

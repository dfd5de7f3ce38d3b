import { useEffect, useState } from "react";
import type { LruCache } from "../../src/store/lru-cache.js";

/**
 * Loads what `key` names once it has stayed the same for `delayMs` (holding ↓ starts no
 * reads), keeps results in `cache`, and returns the result for the current key during
 * render (a cache hit costs no extra frame); undefined while it loads. Errors are cached
 * only with `cacheErrors` (otherwise a revisit tries again).
 */
export function useRestedLoad<S>(
  key: string | null,
  load: () => Promise<S>,
  failed: (message: string) => S,
  cache: LruCache<S>,
  { delayMs, cacheErrors }: { delayMs: number; cacheErrors: boolean },
): S | undefined {
  const [result, setResult] = useState<{ key: string; state: S } | null>(null);
  useEffect(() => {
    if (!key || cache.get(key)) return;
    let live = true;
    const timer = setTimeout(() => {
      load().then(
        (state) => {
          cache.set(key, state);
          if (live) setResult({ key, state });
        },
        (err: unknown) => {
          const state = failed(err instanceof Error ? err.message : String(err));
          if (cacheErrors) cache.set(key, state);
          if (live) setResult({ key, state });
        },
      );
    }, delayMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // What is loaded is identified by key; load, cache and delay are fixed for the caller's life.
  }, [key]);
  if (!key) return undefined;
  return cache.get(key) ?? (result?.key === key ? result.state : undefined);
}

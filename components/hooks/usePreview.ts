import { useEffect, useState } from "react";
import type { PreviewLoader, PreviewState } from "../preview/types.js";

/** Finished previews by path+mtime, so a changed file is read again. Small LRU. */
export class PreviewCache {
  private map = new Map<string, PreviewState>();
  constructor(private readonly max = 64) {}
  get(key: string): PreviewState | undefined {
    const v = this.map.get(key);
    if (v) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, v: PreviewState): void {
    this.map.delete(key);
    this.map.set(key, v);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
}

const IDLE: PreviewState = { status: "idle" };
const LOADING: PreviewState = { status: "loading" };

/**
 * The preview of the selected session. Loads after `delayMs` of the selection
 * resting, so holding ↓ starts no reads; a cache hit is returned during render
 * with no extra frame. The list never waits for any of it.
 */
export function usePreview(
  session: { path: string; mtimeMs: number } | undefined,
  load: PreviewLoader,
  cache: PreviewCache,
  delayMs = 80,
): PreviewState {
  const key = session ? `${session.path}\0${session.mtimeMs}` : null;
  const [result, setResult] = useState<{ key: string; state: PreviewState } | null>(null);
  useEffect(() => {
    if (!key || !session || cache.get(key)) return;
    let live = true;
    const path = session.path;
    const timer = setTimeout(() => {
      load(path).then(
        (tail) => {
          const st: PreviewState = { status: "ready", tail };
          cache.set(key, st);
          if (live) setResult({ key, state: st });
        },
        (err: unknown) => {
          const st: PreviewState = { status: "error", error: err instanceof Error ? err.message : String(err) };
          if (live) setResult({ key, state: st });
        },
      );
    }, delayMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // The session is identified by key; load, cache and delay are fixed for the app's life.
  }, [key]);
  if (!key) return IDLE;
  const hit = cache.get(key);
  if (hit) return hit;
  return result?.key === key ? result.state : LOADING;
}

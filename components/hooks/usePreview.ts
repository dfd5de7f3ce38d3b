import type { PreviewLoader, PreviewState } from "../preview/types.js";
import { LruCache } from "../../src/store/lru-cache.js";
import { useRestedLoad } from "./useRestedLoad.js";

/** Finished previews by path+mtime, so a changed file is read again. */
export class PreviewCache extends LruCache<PreviewState> {
  constructor(max = 64) {
    super(max);
  }
}

const IDLE: PreviewState = { status: "idle" };
const LOADING: PreviewState = { status: "loading" };

/**
 * The preview of the selected session. Loads after `delayMs` of the selection
 * resting, so holding ↓ starts no reads; the list never waits for any of it.
 */
export function usePreview(
  session: { path: string; mtimeMs: number } | undefined,
  load: PreviewLoader,
  cache: PreviewCache,
  delayMs = 80,
): PreviewState {
  const key = session ? `${session.path}\0${session.mtimeMs}` : null;
  const state = useRestedLoad<PreviewState>(
    key,
    () => load(session!.path).then((tail) => ({ status: "ready", tail })),
    (error) => ({ status: "error", error }),
    cache,
    { delayMs, cacheErrors: false },
  );
  if (!key) return IDLE;
  return state ?? LOADING;
}

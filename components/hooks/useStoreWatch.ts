import { type Dispatch, useCallback, useEffect, useRef } from "react";
import type { FileState, StoreChanges, StoreWatcher } from "../../src/store/watch-store.js";
import type { AppAction } from "../../src/browser/app/appReducer.js";
import type { SessionMap } from "../../src/browser/list/sessions.js";

export type WatchFn = (
  dir: string,
  known: () => ReadonlyMap<string, FileState>,
  onChanges: (c: StoreChanges) => void,
) => StoreWatcher;

/**
 * Keeps the list true while pi writes: watches the store once the first scan is
 * done, with `known` = the sessions the list holds now. Returns `refresh`, to call
 * after an own write. Closed on unmount.
 */
export function useStoreWatch(
  storeDir: string,
  watch: WatchFn | undefined,
  enabled: boolean,
  sessions: SessionMap,
  dispatch: Dispatch<AppAction>,
): () => void {
  const held = useRef(sessions);
  useEffect(() => {
    held.current = sessions;
  }, [sessions]);
  const watcher = useRef<StoreWatcher | null>(null);
  useEffect(() => {
    if (!watch || !enabled) return;
    const known = () => {
      const m = new Map<string, FileState>();
      // Another machine's sessions are not in this store (src/remote keeps them).
      for (const s of held.current.values())
        if (s.host === undefined) m.set(s.path, { bytes: s.bytes, mtimeMs: s.mtimeMs });
      return m;
    };
    const w = watch(storeDir, known, (c) =>
      dispatch({ type: "store.changes", updated: c.updated, removed: c.removed, diagnostics: c.diagnostics }),
    );
    watcher.current = w;
    return () => {
      w.close();
      if (watcher.current === w) watcher.current = null;
    };
  }, [storeDir, watch, enabled, dispatch]);
  return useCallback(() => {
    void watcher.current?.refresh().catch(() => undefined);
  }, []);
}

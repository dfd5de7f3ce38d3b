import { type Dispatch, useEffect, useRef } from "react";
import { sharedIndexCache } from "../../src/model/index-cache.js";
import type { SessionIndex } from "../../src/model/session-index.js";
import type { AppAction } from "../state/appReducer.js";
import type { Effect } from "../state/effects.js";
import { isReaderEffect, type ReaderEffect } from "./readerEffects.js";

/** How the reader loads a session: the skimmed index (bulky outputs are read only when shown), shared with the preview and the tree. */
export type LoadIndex = (path: string) => Promise<SessionIndex>;

const realLoad: LoadIndex = (path) => sharedIndexCache.get(path);

/** Carries out the reader's loads; results come back as reader.loaded / reader.loadFailed. */
export function useReaderEffects(effects: readonly Effect[], dispatch: Dispatch<AppAction>, load: LoadIndex = realLoad): void {
  const started = useRef(new Set<number>());
  useEffect(() => {
    const mine = effects.filter((e): e is ReaderEffect => isReaderEffect(e) && !started.current.has(e.id));
    if (mine.length === 0) return;
    for (const e of mine) {
      started.current.add(e.id);
      load(e.path).then(
        (index) => dispatch({ type: "reader.loaded", path: e.path, seq: e.seq, index }),
        (err: unknown) => dispatch({ type: "reader.loadFailed", path: e.path, seq: e.seq, error: err instanceof Error ? err.message : String(err) }),
      );
    }
    dispatch({ type: "effects.done", ids: mine.map((e) => e.id) });
  }, [effects, dispatch, load]);
}

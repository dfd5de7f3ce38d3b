import { sharedIndexCache } from "../../store/index-cache.js";
import type { SessionIndex } from "../../store/session-index.js";
import type { ReaderAction } from "./readerReducer.js";
import type { ReaderEffect } from "./readerEffects.js";

/** How the reader loads a session: the skimmed index (bulky outputs are read only when shown), shared with the preview and the tree. */
export type LoadIndex = (path: string) => Promise<SessionIndex>;

export const realLoadIndex: LoadIndex = (path) => sharedIndexCache.get(path);

/** Carries out the reader's load; the result comes back as reader.loaded / reader.loadFailed. */
export function runReaderEffect(e: ReaderEffect, dispatch: (a: ReaderAction) => void, load: LoadIndex): void {
  load(e.path).then(
    (index) => dispatch({ type: "reader.loaded", path: e.path, seq: e.seq, index }),
    (err: unknown) =>
      dispatch({
        type: "reader.loadFailed",
        path: e.path,
        seq: e.seq,
        error: err instanceof Error ? err.message : String(err),
      }),
  );
}

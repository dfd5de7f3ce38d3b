import { readEntry } from "../../src/store/session-index.js";
import type { EntryNode, SessionEntry } from "../../src/model/types.js";
import { LruCache } from "../../src/store/lru-cache.js";
import { useRestedLoad } from "../hooks/useRestedLoad.js";
import type { EntryPreviewState } from "./entryPreviewLines.js";

/** Full entries read so far, by path, id and line offset (appends never move a line). */
export class EntryCache extends LruCache<EntryPreviewState> {
  constructor(max = 256) {
    super(max);
  }
}

const LOADING: EntryPreviewState = { status: "loading" };

export type EntryReader = (path: string, node: EntryNode) => Promise<SessionEntry>;

/**
 * The selected entry in full, read after the cursor rests `delayMs` (holding ↓ reads
 * nothing); a cached entry is returned during render. Moving never waits for it.
 */
export function useEntryPreview(
  path: string,
  node: EntryNode | undefined,
  cache: EntryCache,
  read: EntryReader = readEntry,
  delayMs = 40,
): EntryPreviewState {
  const key = node ? `${path}\0${node.id}\0${node.offset}` : null;
  const state = useRestedLoad<EntryPreviewState>(
    key,
    () => read(path, node!).then((entry) => ({ status: "ready", entry })),
    (error) => ({ status: "error", error }),
    cache,
    { delayMs, cacheErrors: true },
  );
  return state ?? LOADING;
}

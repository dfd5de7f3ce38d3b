import { useEffect, useState } from "react";
import { readEntry } from "../../src/model/session-index.js";
import type { EntryNode, SessionEntry } from "../../src/model/types.js";
import type { EntryPreviewState } from "./entryPreviewLines.js";

/** Full entries read so far, by path, id and line offset (appends never move a line). Small LRU. */
export class EntryCache {
  private map = new Map<string, EntryPreviewState>();
  constructor(private readonly max = 256) {}
  get(key: string): EntryPreviewState | undefined {
    const v = this.map.get(key);
    if (v) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, v: EntryPreviewState): void {
    this.map.delete(key);
    this.map.set(key, v);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
}

const LOADING: EntryPreviewState = { status: "loading" };

export type EntryReader = (path: string, node: EntryNode) => Promise<SessionEntry>;

/**
 * The selected entry in full, read after the cursor rests `delayMs` (holding ↓ reads
 * nothing); a cached entry is returned during render. Moving never waits for it.
 */
export function useEntryPreview(path: string, node: EntryNode | undefined, cache: EntryCache, read: EntryReader = readEntry, delayMs = 40): EntryPreviewState {
  const key = node ? `${path}\0${node.id}\0${node.offset}` : null;
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!key || !node || cache.get(key)) return;
    let live = true;
    const timer = setTimeout(() => {
      read(path, node).then(
        (entry) => {
          cache.set(key, { status: "ready", entry });
          if (live) setTick((n) => n + 1);
        },
        (err: unknown) => {
          cache.set(key, { status: "error", error: err instanceof Error ? err.message : String(err) });
          if (live) setTick((n) => n + 1);
        },
      );
    }, delayMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // The entry is identified by key; the cache, reader and delay are fixed.
  }, [key]);
  if (!key) return LOADING;
  return cache.get(key) ?? LOADING;
}

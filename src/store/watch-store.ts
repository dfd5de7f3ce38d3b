import { readdirSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import type { Diagnostic, SessionSummary } from "../model/types.js";
import { discoverFiles } from "./discover.js";
import { forEachLimited } from "./pool.js";
import { scanSessionFile } from "./scan-file.js";
import { settler } from "./settle.js";

export interface StoreChanges {
  /** New or changed sessions, freshly summarized. */
  updated: SessionSummary[];
  /** Paths that are gone (deleted, trashed, renamed away) or no longer sessions. */
  removed: string[];
  diagnostics: Diagnostic[];
}

export interface FileState {
  bytes: number;
  mtimeMs: number;
}

export interface StoreWatcher {
  /** Look now (after an own write, say) instead of waiting for the next event. */
  refresh(): Promise<void>;
  close(): void;
}

/**
 * Keeps a view of the store true while pi writes to it: file events (and a slow poll, for
 * file systems without events) trigger a stat-only rediscovery; only files whose size or
 * mtime changed are read again. `known` is what the caller currently shows.
 */
export function watchStore(
  dir: string,
  known: () => ReadonlyMap<string, FileState>,
  onChanges: (changes: StoreChanges) => void,
  options: { debounceMs?: number; maxWaitMs?: number; pollMs?: number } = {},
): StoreWatcher {
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  // Folders made since (a new project) are watched from the next check on (the store's own
  // watch hears them made).
  let watchNewFolders = () => {};
  const check = async () => {
    watchNewFolders();
    const { files } = await discoverFiles(dir).catch(() => ({ files: [] }));
    const seen = known();
    const present = new Set(files.map((f) => f.path));
    const removed = [...seen.keys()].filter((p) => !present.has(p));
    const dirty = files.filter((f) => {
      const k = seen.get(f.path);
      return !k || k.bytes !== f.bytes || k.mtimeMs !== f.mtimeMs;
    });
    const updated: SessionSummary[] = [];
    const bad: Diagnostic[] = [];
    await forEachLimited(dirty, 4, async (f) => {
      const r = await scanSessionFile(f);
      if (r.kind === "session") updated.push(r.summary);
      else {
        bad.push(r.diagnostic);
        if (seen.has(f.path)) removed.push(f.path);
      }
    });
    if (!closed && (updated.length || removed.length || bad.length)) {
      onChanges({ updated, removed, diagnostics: bad });
    }
  };

  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = check().finally(() => {
      running = undefined;
      if (again && !closed) {
        again = false;
        void run();
      }
    });
    return running;
  };

  // A burst of events is one look once it is over; steady writes (several pi runs appending)
  // are looked at every maxWaitMs all the same, so a new or changed session shows within a
  // second whatever else is written.
  const settle = settler(() => void run(), {
    quietMs: options.debounceMs ?? 120,
    maxWaitMs: options.maxWaitMs ?? 500,
  });
  const schedule = () => {
    if (!closed) settle.poke();
  };

  // The store and each of its folders, not `recursive: true`: on Linux Node's recursive
  // watch walks the tree and watches every file (10,000 sessions: 190 ms on the UI thread
  // at launch, and an inotify watch each). Sessions lie at most one folder down, and a
  // folder's watch reports the files in it.
  const watchers = new Map<string, FSWatcher>();
  const watchFolder = (folder: string) => {
    if (closed || watchers.has(folder)) return;
    try {
      const w = watch(folder, { persistent: false }, schedule);
      w.on("error", () => {
        w.close();
        watchers.delete(folder);
      });
      watchers.set(folder, w);
    } catch {
      // Gone, or not watchable: the poll still sees it.
    }
  };
  const watchFolders = () => {
    watchFolder(dir);
    try {
      for (const d of readdirSync(dir, { withFileTypes: true })) if (!d.isFile()) watchFolder(join(dir, d.name));
    } catch {
      // Unreadable: the poll reports what it can.
    }
  };
  watchFolders();
  watchNewFolders = watchFolders;
  // With file events the poll is only a safety net (network file systems drop events).
  const poll = setInterval(schedule, options.pollMs ?? (watchers.size ? 15_000 : 1000));
  poll.unref();

  return {
    refresh: run,
    close() {
      closed = true;
      settle.cancel();
      clearInterval(poll);
      for (const w of watchers.values()) w.close();
    },
  };
}

import type { FullTextFn } from "../../src/search/fulltext.js";
import type { PreviewLoader } from "../preview/types.js";
import type { LifecycleDeps } from "../../src/browser/lifecycle/lifecycleEffects.js";
import type { TrashIO } from "../../src/browser/trash/trashRunner.js";
import type { WatchFn } from "../hooks/useStoreWatch.js";
import type { TreeIO } from "../../src/browser/tree/treeRunner.js";
import type { SessionIndex } from "../../src/store/session-index.js";
import type { ScanFn } from "../hooks/useStoreScan.js";
import type { RemoteHosts } from "../../src/remote/browser-hosts.js";

export type { ScanFn };

/** What the browser needs from the outside world; tests pass fakes. */
export interface BrowserDeps {
  scan: ScanFn;
  loadPreview: PreviewLoader;
  cwdExists(dir: string): boolean;
  /** Full-text search over session files; defaults to reading them all (searchFiles; the browser passes the index's). */
  fullText?: FullTextFn;
  /** Rename, trash, permanent delete and restore; defaults to the real file operations. */
  lifecycle?: LifecycleDeps;
  /** The trash view's reading of the trash log and its delete for good. */
  trash?: TrashIO;
  /** Watches the store for live updates; none when absent (tests with fake stores). */
  watch?: WatchFn;
  /** Puts text on the clipboard through the terminal the UI draws on (OSC 52); none when absent. */
  copy?(text: string): void;
  /** Why pi cannot be started (resume), or undefined; not checked when absent. */
  piProblem?(path?: string): string | undefined;
  /** The branch tree's loads, searches and writes; defaults to the real ones. */
  tree?: TreeIO;
  /** Ctrl+Z: give the terminal back and stop until fg (launch.tsx); false when not possible. */
  suspend?(): boolean;
  /** A session's skimmed index, for the reader and exports; defaults to the shared index cache. */
  loadIndex?(path: string): Promise<SessionIndex>;
  /** Other machines (src/remote): their rows, and their sessions read and written there. */
  remote?: RemoteHosts;
  /** Whether keys were read that the UI has not had yet (KeyStream): a search waits for them. */
  keysPending?(): boolean;
  /** Keys read after the one being handled wait to be handed on (KeyStream.queued). */
  keysQueued?(): boolean;
  /** Calls `notify` with how many keys typed before the first frame were dropped (launch.tsx), if any; gives its undo. */
  keysDropped?(notify: (count: number) => void): () => void;
}

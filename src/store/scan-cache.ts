import type { SessionFile } from "./discover.js";
import type { FileScan } from "./scan-file.js";
import type { SessionSummary } from "../model/types.js";

/**
 * What a store scan may keep between runs (the persistent index, src/index, is one):
 * a file's scan, looked up by the file's identity, so an unchanged file is not read again.
 * Any method may fail silently; the scan then reads the file as if nothing were kept.
 */
export interface ScanCache {
  /**
   * The kept scans of these files (every file of the store), by path: only those whose
   * identity (inode, size, mtime) is unchanged. Forgets the files not among them.
   */
  lookup(files: readonly SessionFile[]): Map<string, FileScan>;
  /** Keeps a file's fresh scan. */
  remember(file: SessionFile, scan: FileScan): void;
  /** Writes what is pending. */
  flush(): void;
  /**
   * These summaries (lookup's, every one of them) as the bytes they were read from and their
   * rows there, for a scan on another thread to hand over instead of the summaries (see
   * KeptSnapshot); undefined when any did not come from one snapshot.
   */
  snapshotOf?(summaries: readonly SessionSummary[]): KeptSnapshot | undefined;
}

/** Kept summaries as a snapshot's bytes and rows (src/index/snapshot-codec.ts reads them back). */
export interface KeptSnapshot {
  body: Uint8Array;
  rows: number[];
}

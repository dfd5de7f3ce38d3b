import type { SessionFile } from "./discover.js";
import type { FileScan } from "./scan-file.js";
import type { Diagnostic, Lineage } from "../model/types.js";

/**
 * What a store scan may keep between runs (the persistent index, src/index, is one):
 * a file's scan, looked up by the file's identity, so an unchanged file is not read again.
 * Any method may fail silently; the scan then reads the file as if nothing were kept.
 */
export interface ScanCache {
  /**
   * The kept scans of these files (every file of the store), by path: only those whose
   * identity (inode, size, mtime, ctime) is unchanged. Forgets the files not among them.
   */
  lookup(files: readonly SessionFile[]): Map<string, FileScan>;
  /**
   * Keeps a file's fresh scan. `readFrom`: Date.now() before the file was read (default:
   * now), to tell a read that may be older than the file's identity says (readIsRacy).
   */
  remember(file: SessionFile, scan: FileScan, readFrom?: number): void;
  /** Writes what is pending (a cache that holds its writes for later leaves them). */
  flush(): void;
  /**
   * Instead of lookup, for a scan whose kept summaries are made on another thread (a scan
   * worker's parent reads the snapshot itself): which rows of the snapshot still hold for
   * these files (every file of the store), from its identities alone; forgets the files not
   * among them. Undefined when it cannot tell (then lookup). `lineage` false: the caller
   * resolves none, so `sessions` stays empty (50,000 made for nothing in the text list).
   */
  keptRows?(files: readonly SessionFile[], lineage?: boolean): KeptRows | undefined;
}

/** The kept rows of a snapshot (ScanCache.keptRows). */
export interface KeptRows {
  /** The snapshot's generation: the rows are of that one. */
  gen: string;
  /** The files not kept (to be read), in their order. */
  todo: SessionFile[];
  /**
   * Files the snapshot has otherwise (changed since, or new) whose own kept rows still hold
   * (written by a run that left the snapshot as it was): their scans, by path.
   */
  scans?: Map<string, FileScan>;
  /** Those of the rows that are no session. */
  diagnostics: Diagnostic[];
  /** The rows of those that are sessions, in the files' order. */
  rows: number[];
  /** The same sessions as lineage needs them (none when asked without lineage). */
  sessions: KeptSession[];
}

/** A kept session as resolveLineage needs it: its lineage is set there. */
export interface KeptSession {
  row: number;
  path: string;
  parentSessionPath?: string;
  lineage: Lineage;
}

import type { TreeShape } from "./tree.js";
import type { EntryNode, SessionHeader } from "./types.js";

/**
 * A session read into a light index (src/store/session-index.ts reads it): one node per
 * entry, the tree they form, and what the file was when read. The shape only: the model
 * works on it without reading files.
 */
export interface SessionIndex {
  path: string;
  header: SessionHeader;
  version: number;
  /** One node per id, in file order (a repeated id keeps its first place, the later content). */
  nodes: EntryNode[];
  byId: Map<string, EntryNode>;
  tree: TreeShape;
  /** The last entry in the file, of any type (pi's leaf). */
  leafId: string | null;
  /** entryId → label, replayed in file order (last wins, falsy clears). */
  labels: Map<string, string>;
  /** entryId → timestamp of the label entry that set its label. */
  labelTimestamps: Map<string, string>;
  name?: string;
  warnings: string[];
  bytes: number;
  mtimeMs: number;
  /** False when the last line has no newline: an append must add one first. */
  endsWithNewline: boolean;
  /** Byte offset just after the last newline-terminated line. */
  tailStart: number;
  /** File identity when read, to notice a file replaced under the same name. */
  ino: number;
  /** Its ctime when read (a rewrite that puts the mtime back changes it); absent when not known. */
  ctimeMs?: number;
}

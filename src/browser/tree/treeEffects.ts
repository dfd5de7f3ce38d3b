import type { SessionIndex } from "../../store/session-index.js";
import type { FileIdentity } from "../../store/file-identity.js";
import type { PendingWrite } from "./treeState.js";

/** I/O the tree's reducer asks for; run by runTreeEffect. */
export type TreeEffect =
  | { type: "tree.load"; path: string; seq: number }
  | { type: "tree.search"; path: string; index: SessionIndex; query: string; seq: number }
  /**
   * An append (label, resume-at-entry). Unless `force`, a file pi may have open asks first.
   * `read`: the file as the tree read it; one replaced or rewritten since is refused (and
   * read again). `cwd`: a resume checks pi can start there first; where that folder is
   * gone, pi starts in `launchCwd` and asks there itself.
   */
  | {
      type: "tree.write";
      path: string;
      write: PendingWrite;
      force: boolean;
      ownMtime?: number;
      read?: FileIdentity;
      cwd?: string;
      launchCwd?: string;
    }
  | { type: "tree.fork"; path: string; entryId: string; read?: FileIdentity };

const TYPES = new Set(["tree.load", "tree.search", "tree.write", "tree.fork"]);

export function isTreeEffect(e: { type: string }): e is TreeEffect {
  return TYPES.has(e.type);
}

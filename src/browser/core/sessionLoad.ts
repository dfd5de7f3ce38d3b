import type { SessionIndex } from "../../store/session-index.js";

/**
 * A screen over one session that loads its index (the branch tree, the reader): what both
 * keep about the file and the load under way. A leaf module, so the two states share it.
 */
export interface SessionLoad {
  path: string;
  cwd: string;
  title: string;
  status: "loading" | "ready" | "error";
  error?: string;
  /** Stale load results (an older request) are ignored. */
  loadSeq: number;
  index: SessionIndex | null;
}

/** Whether a load result (`path`, `seq`) answers the load `l` is waiting for. */
export function isCurrentLoad(l: SessionLoad, a: { path: string; seq: number }): boolean {
  return a.path === l.path && a.seq === l.loadSeq;
}

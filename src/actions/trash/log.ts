import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { TrashedFile } from "./freedesktop.js";

/** One trashed session, as pi-sessions remembers it for `restore` and undo. */
export interface TrashRecord extends TrashedFile {
  batch: string;
  sessionId?: string;
  title?: string;
  bytes: number;
}

/** `$XDG_STATE_HOME/pi-sessions/trash-log.jsonl` (default ~/.local/state/…). */
export function trashLogPath(env: NodeJS.ProcessEnv = process.env): string {
  const state = env.XDG_STATE_HOME && env.XDG_STATE_HOME.startsWith("/") ? env.XDG_STATE_HOME : join(env.HOME || homedir(), ".local", "state");
  return join(state, "pi-sessions", "trash-log.jsonl");
}

export function appendTrashLog(records: TrashRecord[], env: NodeJS.ProcessEnv = process.env): void {
  if (!records.length) return;
  const path = trashLogPath(env);
  mkdirSync(join(path, ".."), { recursive: true });
  appendFileSync(path, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
}

/** Records whose file is still in the trash, oldest first. */
export function readTrashLog(env: NodeJS.ProcessEnv = process.env): TrashRecord[] {
  const path = trashLogPath(env);
  if (!existsSync(path)) return [];
  const out: TrashRecord[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as TrashRecord;
      if (typeof r.trashedFile === "string" && typeof r.original === "string" && existsSync(r.trashedFile)) out.push(r);
    } catch {
      // a damaged log line loses one record, never the others
    }
  }
  return out;
}

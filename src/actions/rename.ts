import { appendEntry } from "./append-entry.js";
import type { SessionEntry } from "../model/types.js";
import { normalizeName } from "../model/session-name.js";

/** Appends a `session_info` entry with the name normalised (here, once); an empty name clears (pi ≥0.59). Gives back the entry written. */
export function renameSession(path: string, name: string): Promise<SessionEntry & { name: string }> {
  const clean = normalizeName(name);
  return appendEntry(path, ({ id, parentId, timestamp }) => ({
    type: "session_info",
    id,
    parentId,
    timestamp,
    name: clean,
  })) as Promise<SessionEntry & { name: string }>;
}

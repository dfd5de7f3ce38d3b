import { v7 as uuidv7 } from "uuid";
import { readEntriesSync } from "../store/read-entries.js";
import type { SessionIndex } from "../store/session-index.js";
import { CURRENT_VERSION } from "../store/session-reader.js";

/**
 * One JSON value on one line. C1 controls and bidi overrides are escaped as well as what
 * JSON.stringify escapes, so printing the export to a terminal is safe; JSON.parse reads
 * back the same value.
 */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0080-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * A branch as a new session file, in the shape of pi's /export to .jsonl
 * (serializeSessionBranch): a fresh header in the current version, then the branch's
 * entries root → leaf, each parented at the one before it (the first at null). Unlike
 * pi's own export the header gets a new session id: the file is a new session, and pi
 * finds sessions by id, so it must not share the source's. Like pi's, it carries no
 * parentSession (the source's path means nothing where the export is taken).
 */
export function toJsonl(index: SessionIndex, ids: readonly string[], opts: { now?: Date; id?: string } = {}): string {
  const header = {
    type: "session",
    version: CURRENT_VERSION,
    id: opts.id ?? uuidv7(),
    timestamp: (opts.now ?? new Date()).toISOString(),
    cwd: typeof index.header.cwd === "string" ? index.header.cwd : "",
  };
  const lines = [jsonLine(header)];
  let parentId: string | null = null;
  for (const entry of readEntriesSync(index, ids)) {
    lines.push(jsonLine({ ...entry, parentId }));
    parentId = entry.id;
  }
  return `${lines.join("\n")}\n`;
}

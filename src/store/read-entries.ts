import { closeSync, openSync } from "node:fs";
import { parseBounded, SHOWN } from "./bounded-parse.js";
import { BIG_LINE } from "./parse-line.js";
import { readRange } from "./read-range.js";
import { limitDepth } from "../model/bounded-json.js";
import type { SessionIndex } from "../model/index-types.js";
import type { SessionEntry } from "../model/types.js";

/**
 * The full entries of `ids`, in that order, read back from their lines through one open
 * file and migrated as the index saw them (ids and parents from the index, so v1 files
 * keep the ids the index gave them; hookMessage → custom; a v1 compaction's
 * firstKeptEntryIndex → firstKeptEntryId). A line that no longer parses (the file was
 * replaced) throws: the caller reports it rather than export something else. Exports read
 * whole; the reader passes `bounded`.
 */
export function readEntriesSync(
  index: SessionIndex,
  ids: readonly string[],
  opts: { bounded?: boolean } = {},
): SessionEntry[] {
  const fd = openSync(index.path, "r");
  try {
    return ids.map((id) => {
      const node = index.byId.get(id);
      if (!node) throw new Error(`no entry ${id} in ${index.path}`);
      const raw = readRange(fd, node.offset, node.length);
      let entry: SessionEntry;
      try {
        // `bounded` (the reader): a huge line is read as far as a screen shows it.
        entry = (
          opts.bounded && raw.length > BIG_LINE
            ? parseBounded(raw, 0, raw.length, SHOWN)
            : JSON.parse(raw.toString("utf8"))
        ) as SessionEntry;
      } catch {
        throw new Error(`line ${node.line} of ${index.path} changed since it was read; read the session again`);
      }
      // What is nested too deep to write or show is cut, with a note in its place.
      entry = limitDepth(entry);
      entry.id = node.id;
      entry.parentId = node.parentId;
      if (entry.type === "message" && entry.message?.role === "hookMessage") entry.message.role = "custom";
      if (index.version < 2 && typeof entry.firstKeptEntryIndex === "number") {
        // v1 ids are the parsed line's index − 1 in hex (session-reader's migrateV1).
        const target = (entry.firstKeptEntryIndex - 1).toString(16).padStart(8, "0");
        if (entry.firstKeptEntryIndex >= 1 && index.byId.has(target)) entry.firstKeptEntryId = target;
        delete entry.firstKeptEntryIndex;
      }
      return entry;
    });
  } finally {
    closeSync(fd);
  }
}

import { AppendRefused, appendEntry } from "./append-entry.js";
import type { SessionEntry } from "../model/types.js";

export const NAVIGATE_TYPE = "pi-sessions/navigate";

/**
 * Makes `targetId` the session's position, the in-file equivalent of pi's /tree without a
 * summary: one `custom` entry (left out of the model's context) parented at the target,
 * recording the previous leaf. Writes nothing when the target already is the leaf.
 * `null` is pi's resetLeaf (a user message at the root was picked): the entry is a new root,
 * so the conversation pi opens is empty. Returns the written entry, or null when nothing was needed.
 */
export async function resumeAtEntry(path: string, targetId: string | null): Promise<SessionEntry | null> {
  return appendEntry(
    path,
    ({ id, parentId, timestamp }) =>
      parentId === targetId
        ? null
        : { type: "custom", customType: NAVIGATE_TYPE, data: { from: parentId }, id, parentId: targetId, timestamp },
    (index) => {
      if (index.version < 2)
        throw new AppendRefused(`${path} is a version 1 session: its entry ids change every time pi opens it`);
      if (targetId !== null && !index.byId.has(targetId)) throw new AppendRefused(`no entry ${targetId} in ${path}`);
    },
  );
}

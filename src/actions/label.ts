import { AppendRefused, appendEntry } from "./append-entry.js";
import type { SessionEntry } from "../model/types.js";

/** Labels are one line: newlines collapse, whitespace trims; empty clears. */
export function normalizeLabel(label: string | undefined): string | undefined {
  const clean = (label ?? "").replace(/[\r\n]+/g, " ").trim();
  return clean || undefined;
}

/**
 * Appends a `label` entry as pi's appendLabelChange does; no label clears (the key is
 * left out, as JSON.stringify drops pi's `undefined`). Refuses unknown targets and v1
 * files, whose ids pi regenerates on every open.
 */
export function labelEntry(path: string, targetId: string, label?: string): Promise<SessionEntry> {
  const clean = normalizeLabel(label);
  return appendEntry(
    path,
    ({ id, parentId, timestamp }) => ({
      type: "label",
      id,
      parentId,
      timestamp,
      targetId,
      ...(clean ? { label: clean } : {}),
    }),
    (index) => {
      if (index.version < 2)
        throw new AppendRefused(
          `${path} is a version 1 session: pi regenerates its entry ids, so a label would point nowhere`,
        );
      if (!index.byId.has(targetId)) throw new AppendRefused(`no entry ${targetId} in ${path}`);
    },
  ) as Promise<SessionEntry>;
}

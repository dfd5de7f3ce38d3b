import type { SessionEntry } from "./types.js";

/**
 * pi's rules for what a session is called and which entries carry labels, in one place:
 * both replay the file in order and the last entry wins.
 */

/** The name after a `session_info` entry (pi ≥0.59: an empty or blank name clears it). */
export function nameFrom(entry: SessionEntry): string | undefined {
  return typeof entry.name === "string" ? entry.name.trim() || undefined : undefined;
}

/**
 * Applies a `label` entry: a truthy label sets it, a missing or empty one clears it.
 * `timestamps`, when given, tracks when each label was set (forks keep it, as new pi does).
 */
export function applyLabel(labels: Map<string, string>, entry: SessionEntry, timestamps?: Map<string, string>): void {
  if (typeof entry.targetId !== "string") return;
  if (entry.label) {
    labels.set(entry.targetId, String(entry.label));
    timestamps?.set(entry.targetId, entry.timestamp);
  } else {
    labels.delete(entry.targetId);
    timestamps?.delete(entry.targetId);
  }
}

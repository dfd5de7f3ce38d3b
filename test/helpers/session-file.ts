import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const HEADER = {
  type: "session",
  version: 3,
  id: "0196e0a2-8c1d-7b3e-9f40-5a7c2d1e8b90",
  timestamp: "2026-05-02T09:14:03.221Z",
  cwd: "/tmp/proj",
};

let n = 0;
/** An entry line with a predictable timestamp (later entries are newer). */
export function entry(
  id: string,
  parentId: string | null,
  fields: Record<string, unknown> = {},
): Record<string, unknown> {
  n++;
  return {
    type: "message",
    id,
    parentId,
    timestamp: new Date(Date.parse("2026-05-02T09:15:00Z") + n * 1000).toISOString(),
    ...fields,
  };
}
export const user = (id: string, parentId: string | null, text: string) =>
  entry(id, parentId, { message: { role: "user", content: text, timestamp: 1 } });
/** A user message as a line to append to a session file (its newline too): no parent, a fixed time. */
export const userLine = (id: string, text: string): string =>
  JSON.stringify({
    type: "message",
    id,
    parentId: null,
    timestamp: "2026-11-24T10:00:00.000Z",
    message: { role: "user", content: text, timestamp: 1 },
  }) + "\n";
export const assistant = (id: string, parentId: string | null, text: string, extra: Record<string, unknown> = {}) =>
  entry(id, parentId, {
    message: { role: "assistant", content: [{ type: "text", text }], stopReason: "stop", model: "m", ...extra },
  });

/** Writes a session file (header + entries) into a fresh temp dir; returns its path and a cleanup. */
export function writeSession(
  entries: Record<string, unknown>[],
  header: Record<string, unknown> = HEADER,
): { path: string; dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "pi-sessions-test-"));
  const path = join(dir, "2026-05-02T09-14-03-221Z_test.jsonl");
  writeFileSync(path, [header, ...entries].map((e) => JSON.stringify(e)).join("\n") + "\n");
  return { path, dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A small branched session used by the tree tests:
 *   u1 ─ a1 ─┬─ u3 ─ a3 ─ l1   (active; l1 labels u3 "keep" and is the leaf)
 *            └─ u2 ─ a2        (the older, abandoned branch)
 */
export function writeBranchedSession(): ReturnType<typeof writeSession> {
  return writeSession([
    entry("m0", null, { type: "model_change", provider: "p", modelId: "m" }),
    user("u1", "m0", "first question"),
    assistant("a1", "u1", "first answer"),
    user("u2", "a1", "old branch question"),
    assistant("a2", "u2", "old branch answer"),
    user("u3", "a1", "new branch question"),
    assistant("a3", "u3", "new branch answer"),
    entry("l1", "a3", { type: "label", targetId: "u3", label: "keep" }),
  ]);
}

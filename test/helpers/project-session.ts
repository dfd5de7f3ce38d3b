import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cwdFolderName } from "../../src/store/scope.js";

/**
 * Writes a small session (header, a user message, a reply) into `store`'s folder for the
 * project `cwd`, named as pi names it (that is where pi lists a project's sessions from);
 * `n` (1–9) makes its id and file name, `at` its timestamps. Returns its absolute path.
 */
export function addProjectSession(
  store: string,
  cwd: string,
  firstMessage: string,
  { n, at = "2026-11-21T07:00:00.000Z" }: { n: number; at?: string },
): string {
  const id = `01a1fcb4-0000-7000-8000-${String(n).padStart(12, "0")}`;
  const dir = join(store, cwdFolderName(cwd));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `2026-11-21T07-00-0${n}-000Z_${id}.jsonl`);
  const lines = [
    { type: "session", version: 3, id, timestamp: at, cwd },
    {
      type: "message",
      id: "u1",
      parentId: null,
      timestamp: at,
      message: { role: "user", content: firstMessage, timestamp: 1 },
    },
    {
      type: "message",
      id: "a1",
      parentId: "u1",
      timestamp: at,
      message: { role: "assistant", content: [{ type: "text", text: "ok" }], stopReason: "stop", model: "m" },
    },
  ];
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return path;
}

import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { scanStore } from "../../src/scan/scan-store.js";
import { openStoreIndex } from "../../src/index/store-index.js";
import { indexStaleText } from "../../src/index/text-index.js";
import { makeTmpDir, settle } from "./tmp-store.js";

/**
 * A store of `n` sessions, each saying "hello <i>" then "fix the parser <i>", settled and its text indexed under
 * a cache folder of its own (`env`); then the sessions at `grown` appended to, as pi appending
 * does (`padBytes` more each): the index no longer covers them, a search reads them whole.
 */
export async function parserStore(n: number, grown: readonly number[], padBytes = 0) {
  const store = makeTmpDir("parser-store-");
  const dir = join(store, "--home-u-proj--");
  mkdirSync(dir, { recursive: true });
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `0190a0b0-0000-7000-8000-${String(i).padStart(12, "0")}`;
    const path = join(
      dir,
      `2026-11-28T00-00-${String(i % 60).padStart(2, "0")}-${String(i).padStart(3, "0")}Z_${id}.jsonl`,
    );
    const head = { type: "session", version: 3, id, timestamp: "2026-11-28T00:00:00.000Z", cwd: "/home/u/proj" };
    const msg = { type: "message", id: `m${i}`, parentId: null, timestamp: "2026-11-28T00:00:00.000Z" };
    // The word in the conversation only (not in the first message, a field the list matches too).
    const asked = { ...msg, message: { role: "user", content: `hello ${i}` } };
    const said = { ...msg, id: `n${i}`, parentId: `m${i}`, message: { role: "user", content: `fix the parser ${i}` } };
    writeFileSync(path, `${JSON.stringify(head)}\n${JSON.stringify(asked)}\n${JSON.stringify(said)}\n`);
    paths.push(path);
  }
  settle(store);
  const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
  const index = openStoreIndex(store, (m) => expect.fail(m), { env })!;
  await scanStore(store, {}, { cache: index.scans });
  await indexStaleText(index.db);
  index.close();
  for (const i of grown) {
    const pad = padBytes
      ? `${JSON.stringify({ type: "custom", customType: "pad", data: "x".repeat(padBytes) })}\n`
      : "";
    appendFileSync(paths[i], `${pad}${JSON.stringify({ type: "session_info", name: "grown" })}\n`);
  }
  return { store, env, paths };
}

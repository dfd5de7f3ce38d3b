import { appendFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../test/helpers/cli.js";
import { addProjectSession } from "../../../test/helpers/project-session.js";
import { cleanupTmp, makeTmpDir, settle } from "../../../test/helpers/tmp-store.js";
import { parseQuery } from "../../search/query.js";
import type { CliIO } from "./io.js";
import { discoverKept } from "./kept-lookup.js";
import { provenNone } from "./search-none.js";

/*
 * A typo proven to match nothing without ranking the rows (search-none.ts), on a real
 * store with its index and kept answers in a temp cache folder: never where a session's
 * fields, a name's or folder's scattered letters, its conversation, a file the index does
 * not cover, a new file or a renamed session could still match.
 */

let store: string;
let env: NodeJS.ProcessEnv;
let paths: string[];

const line = (id: string, content: string) =>
  JSON.stringify({
    type: "message",
    id,
    parentId: "a1",
    timestamp: "2026-11-21T07:00:05.000Z",
    message: { role: "user", content, timestamp: 2 },
  }) + "\n";

const io = (): CliIO => ({ stdout: () => {}, stderr: () => {}, cwd: store, env, isTTY: false });

/** provenNone of `text` on the store as it is now. */
async function proven(text: string, tools = false): Promise<boolean> {
  const kept = await discoverKept(store, io());
  try {
    return await provenNone(kept, parseQuery(text), tools);
  } finally {
    kept.index()?.close();
  }
}

const search = (args: string[], e: NodeJS.ProcessEnv) =>
  runCli(["search", "--session-dir", store, "--all", ...args], { env: e });

/** Searches until the store's rows, what proves a typo and the index's coverage are kept (a run each). */
async function keepAnswers(): Promise<void> {
  settle(...paths);
  for (let n = 1; n <= 4; n++) await search(["--json", "-n", String(n), "warmup"], env);
}

beforeAll(async () => {
  store = makeTmpDir("pi-sessions-none-");
  env = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-"), PI_SESSIONS_INDEX_BACKGROUND: "0" };
  const a = addProjectSession(store, "/srv/alpha", "hello there", { n: 1 });
  appendFileSync(a, line("u2", "a quokka smiled"));
  const b = addProjectSession(store, "/srv/beta", "plain words", { n: 2 });
  appendFileSync(
    b,
    JSON.stringify({
      type: "session_info",
      id: "i1",
      parentId: "a1",
      timestamp: "2026-11-21T07:00:06.000Z",
      name: "Deploy tools",
    }) + "\n",
  );
  // A line too long for the index: its file is read, not answered by the index.
  const c = addProjectSession(store, "/srv/gamma", "long one", { n: 3 });
  appendFileSync(c, line("u2", `${"x ".repeat(2_200_000)}a wombat at the end`));
  paths = [a, b, c];
  await runCli(["index", "--session-dir", store], { env });
  await keepAnswers();
}, 60_000);
afterAll(() => cleanupTmp());

describe("provenNone", () => {
  it("proves a word in no session's fields, names, folders, text or unindexed file", async () => {
    expect(await proven("zzqxv")).toBe(true);
    // One such word is enough: every word must match.
    expect(await proven("hello zzqxv")).toBe(true);
    // An abbreviation as a substring only ('word) is not scattered over "deploy tools".
    expect(await proven("'dply")).toBe(true);
  });

  it("is not proven for a word in a field, scattered over a name or folder, or in a conversation", async () => {
    for (const word of ["hello", "alpha", "01a1fcb4", "deploy", "dply", "bta", "quokka", "wombat"])
      expect({ word, proven: await proven(word) }).toEqual({ word, proven: false });
    // Words it does not rule on: short, patterns, with a capital.
    for (const word of ["zq", "re:zzqxv", "Zzqxv"])
      expect({ word, proven: await proven(word) }).toEqual({ word, proven: false });
  });

  it("answers as the search without the index does, for typos and hits alike", async () => {
    const off = { ...env, PI_SESSIONS_INDEX: "0" };
    for (const word of ["zzqxv", "'dply", "dply", "quokka", "wombat", "hello", "beta"]) {
      const want = await search(["--json", "-n", "7", word], off);
      expect({ word, got: (await search(["--json", "-n", "7", word], env)).stdout }).toEqual({
        word,
        got: want.stdout,
      });
      const [on, without] = [await search([word], env), await search([word], off)];
      expect({ word, code: on.code, out: on.stdout }).toEqual({ word, code: without.code, out: without.stdout });
    }
  });

  it("is not proven for a new session, nor one renamed, until what proves it is kept again", async () => {
    const d = addProjectSession(store, "/srv/delta", "about zebras", { n: 4 });
    paths.push(d);
    expect(await proven("zebras")).toBe(false);
    expect(JSON.parse((await search(["--json", "zebras"], env)).stdout)).toHaveLength(1);
    appendFileSync(
      paths[2],
      JSON.stringify({
        type: "session_info",
        id: "i2",
        parentId: "a1",
        timestamp: "2026-11-21T07:00:07.000Z",
        name: "the zzqxv task",
      }) + "\n",
    );
    expect(await proven("zzqxv")).toBe(false);
    expect(JSON.parse((await search(["--json", "zzqxv"], env)).stdout)).toHaveLength(1);
    // Kept again for the store as it is now: proven for a word still in none, not for those.
    await keepAnswers();
    expect(await proven("zzqxw")).toBe(true);
    expect(await proven("zzqxv")).toBe(false);
    expect(await proven("zebras")).toBe(false);
  });
});

// search keeps no --json answer of a run that failed to read a file while searching it (EIO,
// EMFILE), after the scan: the rows kept, the file read whole (the index does not cover its
// text) or for its snippets. The store's fingerprint does not hold that failure, so the answer
// kept would be served, the hit or its snippets missing, once the file is readable again.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AnswerCache } from "../src/cli/common/answer-cache.js";
import { indexPathFor } from "../src/index/index-location.js";
import { cwdFolderName } from "../src/store/scope.js";
import { runCli } from "./helpers/cli.js";
import { failing } from "./helpers/failing-reads.js";
import { cleanupTmp, makeTmpDir, settle } from "./helpers/tmp-store.js";

vi.mock("../src/store/line-reader.js", async (importOriginal) =>
  (await import("./helpers/failing-reads.js")).failingLineReader(await importOriginal()),
);

afterEach(() => {
  failing.clear();
  cleanupTmp();
});

/** Four sessions, `quokka` in the reply (the conversation, not a row's field) of the 1st and 3rd; settled. */
function makeStore(): { store: string; paths: string[] } {
  const store = join(makeTmpDir("pi-sessions-readfail-"), "sessions");
  const cwd = "/home/dev/one";
  const dir = join(store, cwdFolderName(cwd));
  mkdirSync(dir, { recursive: true });
  const paths = [1, 2, 3, 4].map((n) => {
    const id = `01a1fcb4-0000-7000-8000-${String(n).padStart(12, "0")}`;
    const at = `2026-11-2${n}T07:00:00.000Z`;
    const path = join(dir, `2026-11-2${n}T07-00-00-000Z_${id}.jsonl`);
    const reply = n % 2 ? `a quokka answer ${n}` : `an answer ${n}`;
    const lines = [
      { type: "session", version: 3, id, timestamp: at, cwd },
      { type: "message", id: "u1", parentId: null, timestamp: at, message: { role: "user", content: `question ${n}` } },
      {
        type: "message",
        id: "a1",
        parentId: "u1",
        timestamp: at,
        message: { role: "assistant", content: [{ type: "text", text: reply }], stopReason: "stop", model: "m" },
      },
    ];
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    return path;
  });
  settle(store);
  return { store, paths };
}

describe("search --json with a file failing to be read during the search", () => {
  const setup = () => {
    const { store, paths } = makeStore();
    // Nothing of the conversations indexed on the way: every file is read whole.
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-"), PI_SESSIONS_INDEX_INLINE_BYTES: "0" };
    const search = async (n: number) => {
      const r = await runCli(["search", "--session-dir", store, "--all", "--json", "-n", String(n), "quokka"], {
        env,
      });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as Array<{ path: string; snippets?: unknown[] }>).sort((a, b) =>
        a.path < b.path ? -1 : 1,
      );
    };
    const found = async (n: number) => (await search(n)).map((x) => x.path);
    const kept = (key: string) => new AnswerCache(indexPathFor(store, env)!).latest(key);
    return { paths, search, found, kept };
  };

  it("keeps no answer missing a hit whose file failed when read whole (the rows kept): the next run lists it", async () => {
    const { paths, found, kept } = setup();
    // Twice on the store as it is: the rows are kept, the next run scans nothing.
    expect(await found(10)).toEqual([paths[0], paths[2]]);
    expect(await found(11)).toEqual([paths[0], paths[2]]);
    expect(kept("search rows")).toBeDefined();
    failing.set(paths[0], 0);
    // Asked twice: the second would keep its answer (the first says the store is settled).
    expect(await found(12)).toEqual([paths[2]]);
    expect(await found(12)).toEqual([paths[2]]);
    failing.clear();
    expect(await found(12)).toEqual([paths[0], paths[2]]);
  });

  it("keeps no answer missing a hit's snippets, its file failing after it was read whole", async () => {
    const { paths, search } = setup();
    expect((await search(10)).map((x) => x.snippets?.length)).toEqual([1, 1]);
    await search(11);
    // Asked twice, each read whole once (the hit), then failing (its snippets).
    for (let i = 0; i < 2; i++) {
      failing.set(paths[0], 1);
      const short = await search(12);
      expect(short.map((x) => x.path)).toEqual([paths[0], paths[2]]);
      expect(short.map((x) => x.snippets?.length ?? 0)).toEqual([0, 1]);
    }
    failing.clear();
    expect((await search(12)).map((x) => x.snippets?.length)).toEqual([1, 1]);
  });
});

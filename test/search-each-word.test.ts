import { afterAll, describe, expect, it } from "vitest";
import { runCliJson } from "./helpers/cli.js";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE } from "./helpers/tmp-store.js";

/*
 * `search`: each word of a query may hit a different place (as in pi's /resume): the folder
 * for one word and the conversation for another finds what a cwd: filter with the same
 * word finds. With the index and without, all results and the best few (--json, which
 * checks only the files it needs with the index).
 */

afterAll(() => cleanupTmp());

const paths = async (store: string, env: NodeJS.ProcessEnv, args: string[]) =>
  (
    await runCliJson<{ path: string }[]>(["search", "--session-dir", store, "--all", "--json", "-n", "500", ...args], {
      env,
    })
  ).json
    .map((h) => h.path)
    .sort();

describe("search: each word on its own", () => {
  it("`naive 研究` on the demo store finds the sessions `naive cwd:研究` finds (the folder holds 研究, the conversation naive)", async () => {
    const store = copyStore(PI_STORE);
    for (const env of [{ PI_SESSIONS_INDEX: "0" }, { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") }]) {
      const filtered = await paths(store, env, ["naive", "cwd:研究"]);
      expect(filtered.length).toBeGreaterThan(2);
      expect(await paths(store, env, ["naive", "研究"])).toEqual(filtered);
      // Asked again: from what the first search kept (the index's coverage, the rows).
      expect(await paths(store, env, ["研究", "naive"])).toEqual(filtered);
    }
  });
});

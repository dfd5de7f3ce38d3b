// `pi-sessions index` reads files on text readers (src/index/text-readers.ts) unless
// PI_SESSIONS_TEXT_READERS=0. In-process, where the readers' built worker is not beside the
// sources: whether the command asks for readers is what is looked at.
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { TextReaders } from "../src/index/text-readers.js";
import { runCli } from "./helpers/cli.js";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE, settle } from "./helpers/tmp-store.js";

afterAll(cleanupTmp);
afterEach(() => vi.restoreAllMocks());

describe("pi-sessions index and its text readers", () => {
  for (const [value, asked] of [
    [undefined, 1],
    ["1", 1],
    ["0", 0],
  ] as const)
    it(`PI_SESSIONS_TEXT_READERS=${value ?? "(unset)"}: readers asked for ${asked} time(s), the index built`, async () => {
      const store = copyStore(PI_STORE);
      settle(store);
      const start = vi.spyOn(TextReaders, "start");
      const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-"), PI_SESSIONS_TEXT_READERS: value };
      const r = await runCli(["index", "--session-dir", store], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(start).toHaveBeenCalledTimes(asked);
      const status = JSON.parse(
        (await runCli(["index", "--status", "--json", "--session-dir", store], { env })).stdout,
      );
      expect(status.textIndexed).toBe(status.sessions);
    });
});

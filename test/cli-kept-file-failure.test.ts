// A kept answer (list --json's, the text list's) read from its file a chunk at a time: a read
// that fails before any byte is out is a miss (the files' own answer); one that fails once
// bytes may be out cannot be, and the command fails saying so.
import { readdirSync, statSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AnswerCache } from "../src/cli/common/answer-cache.js";
import { answersDirOf } from "../src/index/answer-files.js";
import { indexPathFor } from "../src/index/index-location.js";
import { runCli } from "./helpers/cli.js";
import { cleanupTmp, copyStore, makeTmpDir, REPO, settle } from "./helpers/tmp-store.js";

afterEach(() => {
  vi.restoreAllMocks();
  cleanupTmp();
});

const ASKS = [
  ["list", "--all"],
  ["list", "--all", "--json"],
];

function keptStore() {
  const store = copyStore(join(REPO, "fixtures", "pi-generated", "agent", "sessions"));
  settle(store);
  const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
  const run = async (args: string[], on = true) =>
    runCli([...args, "--session-dir", store], {
      env: on ? env : { ...env, PI_SESSIONS_INDEX: "0" },
      cwd: "/home/dev/src/app",
    });
  return { answers: answersDirOf(indexPathFor(store, env)!), run };
}

describe("a kept answer's file that fails while read", () => {
  it("fails before any byte is out (the text list's header, times, line ends): a miss, the files' own answer", async () => {
    const real = AnswerCache.prototype.file;
    for (const args of ASKS) {
      const { run } = keptStore();
      for (let i = 0; i < 2; i++) expect((await run(args)).code).toBe(0);
      let handed = 0;
      vi.spyOn(AnswerCache.prototype, "file").mockImplementation(function (this: AnswerCache, key, fingerprint) {
        const f = real.call(this, key, fingerprint);
        if (!f) return f;
        handed++;
        f.read = () => {
          throw Object.assign(new Error("EIO: i/o error, read"), { code: "EIO" });
        };
        return f;
      });
      const r = await run(args);
      vi.restoreAllMocks();
      expect({ args, handed }).toEqual({ args, handed: 1 });
      expect({ args, r }).toEqual({ args, r: await run(args, false) });
    }
  });

  it("fails once checked whole (cut short since): the command fails saying so, status 1", async () => {
    const real = AnswerCache.prototype.file;
    for (const args of ASKS) {
      const { answers, run } = keptStore();
      for (let i = 0; i < 2; i++) expect((await run(args)).code).toBe(0);
      vi.spyOn(AnswerCache.prototype, "file").mockImplementation(function (this: AnswerCache, key, fingerprint) {
        const f = real.call(this, key, fingerprint);
        // The open file cut short after its check (its bytes are only read as they are written).
        for (const name of readdirSync(answers)) {
          const path = join(answers, name);
          if (statSync(path).isFile()) truncateSync(path, statSync(path).size - 10);
        }
        return f;
      });
      const r = await run(args);
      vi.restoreAllMocks();
      // The text list's lines are made of its table's (kept-list-table.ts), --json's bytes as kept.
      expect({ args, code: r.code, stderr: r.stderr }).toEqual({
        args,
        code: 1,
        stderr: expect.stringMatching(/^pi-sessions: a kept (table|answer) was cut short while read\n$/),
      });
    }
  });
});

// A kept answer (the text list's, list --json's, stats') is kept only when nothing failed to
// be read that discovery could read: a read failing for a passing reason (EIO, EMFILE) leaves
// the fingerprint as it was, so an answer missing that session would be served until
// something else changed. What discovery could not read is in the fingerprint: kept.
import { appendFileSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { indexPathFor } from "../src/index/index-location.js";
import { AnswerCache } from "../src/cli/common/answer-cache.js";
import { summaryContext } from "../src/index/summary-cache.js";
import { textListKey } from "../src/cli/commands/list.js";
import { runCli } from "./helpers/cli.js";
import { failing } from "./helpers/failing-reads.js";
import { cleanupTmp, copyStore, makeTmpDir, REPO, settle } from "./helpers/tmp-store.js";

vi.mock("../src/store/line-reader.js", async (importOriginal) =>
  (await import("./helpers/failing-reads.js")).failingLineReader(await importOriginal()),
);

afterEach(() => {
  failing.clear();
  cleanupTmp();
});

const ASKS = [
  { args: ["list", "--all"], key: textListKey("", "recent", undefined) },
  { args: ["list", "--all", "--json"], key: JSON.stringify(["list --json", "", "recent"]) },
  { args: ["stats", "--all", "--json"], key: JSON.stringify(["stats-usage", summaryContext()]) },
];

async function indexedStore() {
  const store = copyStore(join(REPO, "fixtures", "pi-generated", "agent", "sessions"));
  settle(store);
  const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
  const run = async (args: string[], on = true) => {
    const r = await runCli([...args, "--session-dir", store], {
      env: on ? env : { ...env, PI_SESSIONS_INDEX: "0" },
      cwd: "/home/dev/src/app",
    });
    return { code: r.code, stdout: r.stdout, stderr: r.stderr };
  };
  expect((await run(["index"])).code).toBe(0);
  const folder = join(store, readdirSync(store).sort()[0]);
  const first = join(folder, readdirSync(folder).sort()[0]);
  return { store, folder, first, run, cache: new AnswerCache(indexPathFor(store, env)!) };
}

describe("a kept answer and a file that cannot be read", () => {
  it("is not kept when a read fails that discovery did not see: the file read next time is listed", async () => {
    for (const { args, key } of ASKS) {
      const { first, run, cache } = await indexedStore();
      // Changed since it was indexed: its rows are read again, and the read fails.
      appendFileSync(first, readFileSync(first, "utf8").split("\n").slice(-2).join("\n"));
      settle(first);
      failing.set(first, 0);
      for (let i = 0; i < 3; i++) {
        const r = await run(args);
        expect(r.code).toBe(0);
        if (args[0] === "list")
          expect({ args, i, stderr: r.stderr }).toMatchObject({ stderr: expect.stringContaining("EIO") });
      }
      expect({ args, kept: cache.latest(key) }).toEqual({ args, kept: undefined });
      // The disk is fine again, nothing else changed: the files' own answer.
      failing.clear();
      const off = await run(args, false);
      expect({ args, on: await run(args) }).toEqual({ args, on: off });
    }
  });

  it("is kept, and served, while a file discovery could not read stays so (its fixing changes the fingerprint)", async () => {
    for (const { args, key } of ASKS) {
      const { folder, run, cache } = await indexedStore();
      // A link to nothing: discovery cannot stat it.
      symlinkSync(join(folder, "gone"), join(folder, "2026-11-20T10-00-01-000Z_b.jsonl"));
      settle(folder);
      const off = await run(args, false);
      if (args[0] === "list") expect(off.stderr).toContain("2026-11-20T10-00-01-000Z_b.jsonl");
      for (let i = 0; i < 3; i++)
        expect({ args, i, on: await run(args) }).toEqual({
          args,
          i,
          on: args[0] === "stats" ? { ...off, stderr: "" } : off,
        });
      expect({ args, kept: cache.latest(key) !== undefined }).toEqual({ args, kept: true });
    }
  });
});

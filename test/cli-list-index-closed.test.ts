// `list` that reads its rows through the index closes it when the read throws: the text list
// as `list --json` (its handle, the SQLite file's, is not left open in a process that goes on,
// as the browser's `list --host` serve or a test runner's).
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runCli } from "./helpers/cli.js";
import { cleanupTmp, copyStore, makeTmpDir, REPO, settle } from "./helpers/tmp-store.js";

/** Indexes opened by the run, and whether each was closed. */
const opened: Array<{ closed: boolean }> = [];
let fail = false;
vi.mock("../src/cli/common/scan-indexed.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/cli/common/scan-indexed.js")>();
  return {
    ...real,
    openIndex: (...args: Parameters<typeof real.openIndex>) => {
      const index = real.openIndex(...args);
      if (!index) return index;
      const seen = { closed: false };
      opened.push(seen);
      return {
        ...index,
        close: () => {
          seen.closed = true;
          index.close();
        },
      };
    },
  };
});
vi.mock("../src/cli/common/scan-columns.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/cli/common/scan-columns.js")>();
  return {
    ...real,
    scanColumns: (...args: Parameters<typeof real.scanColumns>) => {
      if (fail) throw new Error("the scan failed");
      return real.scanColumns(...args);
    },
  };
});

afterEach(() => {
  fail = false;
  opened.length = 0;
  cleanupTmp();
});

describe("the text list whose scan throws", () => {
  it("closes the index it opened", async () => {
    const store = copyStore(join(REPO, "fixtures", "pi-generated", "agent", "sessions"));
    settle(store);
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
    expect((await runCli(["index", "--session-dir", store], { env })).code).toBe(0);
    opened.length = 0;
    fail = true;
    const r = await runCli(["list", "--all", "--session-dir", store], { env });
    expect(r.code).not.toBe(0);
    expect(opened.length).toBe(1);
    expect(opened).toEqual([{ closed: true }]);
  });
});

// search keeps nothing of a run whose scan could not read a file discovery found (EIO,
// EMFILE, a file unreadable at read time): the store's fingerprint does not hold that
// failure, so rows or an answer kept of it would be served, a session short, until
// something else changed. The next run answers what the files say.
import { appendFileSync, symlinkSync } from "node:fs";
import { dirname } from "node:path";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AnswerCache } from "../src/cli/common/answer-cache.js";
import { indexPathFor } from "../src/index/index-location.js";
import type { SessionFile } from "../src/store/discover.js";
import { runCli } from "./helpers/cli.js";
import { addProjectSession } from "./helpers/project-session.js";
import { cleanupTmp, makeTmpDir, settle } from "./helpers/tmp-store.js";

/** Files the scan cannot read (as with EIO), while discovery stats them as ever. */
const unreadable = vi.hoisted(() => new Set<string>());
vi.mock("../src/store/scan-file.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/store/scan-file.js")>();
  return {
    ...real,
    scanSessionFile: (file: SessionFile | string, options?: Parameters<typeof real.scanSessionFile>[1]) => {
      const path = typeof file === "string" ? file : file.path;
      if (!unreadable.has(path)) return real.scanSessionFile(file, options);
      return Promise.resolve({
        kind: "diagnostic" as const,
        diagnostic: { path, kind: "unreadable" as const, reason: "cannot read (EIO)" },
      });
    },
  };
});

afterEach(() => {
  unreadable.clear();
  cleanupTmp();
});

/** Four sessions, `quokka` in the first message of two of them; settled. */
function makeStore(): { store: string; paths: string[] } {
  const store = join(makeTmpDir("pi-sessions-unread-"), "sessions");
  const paths = [1, 2, 3, 4].map((n) =>
    addProjectSession(store, "/home/dev/one", n % 2 ? `a quokka question ${n}` : `question ${n}`, {
      n,
      at: `2026-11-2${n}T07:00:00.000Z`,
    }),
  );
  settle(store);
  return { store, paths };
}

describe("search with a file the scan cannot read", () => {
  const setup = () => {
    const { store, paths } = makeStore();
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
    const found = async (n: number) => {
      const r = await runCli(["search", "--session-dir", store, "--all", "--json", "-n", String(n), "quokka"], {
        env,
      });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as Array<{ path: string }>).map((x) => x.path).sort();
    };
    const kept = (key: string) => new AnswerCache(indexPathFor(store, env)!).latest(key);
    return { paths, found, kept };
  };

  it("keeps no rows of that scan: the next run, the file readable, finds it", async () => {
    const { paths, found, kept } = setup();
    unreadable.add(paths[0]);
    // Twice on the same store: the second would keep its rows.
    expect(await found(10)).toEqual([paths[2]]);
    expect(await found(11)).toEqual([paths[2]]);
    expect(kept("search rows")).toBeUndefined();
    unreadable.clear();
    expect(await found(12)).toEqual([paths[0], paths[2]].sort());
  });

  it("keeps no answer of that scan: the same question asked again is answered from the files", async () => {
    const { paths, found } = setup();
    unreadable.add(paths[0]);
    expect(await found(10)).toEqual([paths[2]]);
    expect(await found(10)).toEqual([paths[2]]);
    unreadable.clear();
    expect(await found(10)).toEqual([paths[0], paths[2]].sort());
  });

  it("keeps its rows when the file it cannot read is one discovery found so (held by the store's fingerprint)", async () => {
    const { paths, found, kept } = setup();
    // A link to nothing: discovery cannot stat it (as root, where modes do not stop a read).
    symlinkSync(join(dirname(paths[0]), "gone"), join(dirname(paths[0]), "2026-11-21T07-00-09-000Z_b.jsonl"));
    expect(await found(10)).toEqual([paths[0], paths[2]].sort());
    expect(await found(11)).toEqual([paths[0], paths[2]].sort());
    expect(kept("search rows")).toBeDefined();
  });

  it("keeps no rows made of those kept before and the changed files read again, one of them unreadable", async () => {
    const { paths, found, kept } = setup();
    // Rows kept of the store as it was (the second run keeps them).
    expect(await found(21)).toEqual([paths[0], paths[2]].sort());
    expect(await found(22)).toEqual([paths[0], paths[2]].sort());
    expect(kept("search rows")).toBeDefined();
    // pi renames session 2 to hold the word; its file is then unreadable when read again.
    appendFileSync(
      paths[1],
      JSON.stringify({
        type: "session_info",
        id: "i1",
        parentId: "a1",
        timestamp: "2026-11-22T08:00:00.000Z",
        name: "quokka",
      }) + "\n",
    );
    settle(paths[1]);
    unreadable.add(paths[1]);
    expect(await found(23)).toEqual([paths[0], paths[2]].sort());
    expect(await found(24)).toEqual([paths[0], paths[2]].sort());
    unreadable.clear();
    expect(await found(25)).toEqual([paths[0], paths[1], paths[2]].sort());
  });
});

import { appendFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE, settle } from "../../test/helpers/tmp-store.js";
import { scanStore } from "../scan/scan-store.js";
import type * as LineReader from "../store/line-reader.js";
import { openStoreIndex } from "./store-index.js";
import { indexStaleText } from "./text-index.js";

/** A read of a file that fails past byte `at` (set): as a disk error midway would. */
const failing = vi.hoisted(() => ({
  at: undefined as number | undefined,
  first: undefined as (() => void) | undefined,
}));

vi.mock("../store/line-reader.js", async (actual) => {
  const real = await actual<typeof LineReader>();
  const readLines: typeof real.readLines = (path, onLine, options) =>
    real.readLines(
      path,
      (ref) => {
        if (failing.at !== undefined && ref.offset >= failing.at) {
          failing.first?.();
          failing.first = undefined;
          throw new Error("EIO (made up by the test)");
        }
        return onLine(ref);
      },
      options,
    );
  return { ...real, readLines };
});

afterEach(() => {
  failing.at = undefined;
  failing.first = undefined;
  cleanupTmp();
});

describe("a read of a large file that fails midway", () => {
  it("leaves none of its own rows behind, and all of another process's: indexed again, each line once", async () => {
    const store = copyStore(PI_STORE);
    settle(store);
    const index = openStoreIndex(store, (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
    await scanStore(store, {}, { cache: index.scans });
    await indexStaleText(index.db, undefined, { toolsAtOnce: true });
    // A session grown by ten lines of 1 MiB of text each: over 1 MiB, it is read in parts, and
    // its rows written (and committed) past 8 MiB of text, before the tenth line.
    const dir = readdirSync(store)[0]!;
    const file = join(store, dir, readdirSync(join(store, dir)).sort()[0]!);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    const user = JSON.parse(lines.find((l) => l.includes('"role":"user"'))!) as Record<string, unknown>;
    let parentId = (JSON.parse(lines.at(-1)!) as { id: string }).id;
    const grownFrom = statSync(file).size;
    const offsets: number[] = [];
    for (let i = 0; i < 10; i++) {
      offsets.push(statSync(file).size);
      const id = `grown${i}`;
      const text = `${"abcdefghij".repeat(100)}${i} `.repeat(1024);
      const message = { ...(user.message as object), content: text };
      appendFileSync(file, JSON.stringify({ ...user, id, parentId, message }) + "\n");
      parentId = id;
    }
    settle(store);
    await scanStore(store, {}, { cache: index.scans });
    const fid = (index.db.q("SELECT fid FROM files WHERE path = ?").get(file) as { fid: number }).fid;
    failing.at = offsets[9];
    // Another process's row of the same file, written after this read's first committed part:
    // not this read's to forget when it fails.
    const theirs = index.db.q("SELECT rid FROM lines WHERE fid = ? AND off = 999999999");
    failing.first = () => {
      const rid = Number(
        index.db.q("INSERT INTO lines(fid, off, len, tool) VALUES(?, 999999999, 1, 1)").run(fid).lastInsertRowid,
      );
      index.db.q("INSERT INTO runs(fid, first, last) VALUES(?, ?, ?)").run(fid, rid, rid);
    };
    await indexStaleText(index.db, undefined, { toolsAtOnce: true });
    failing.at = undefined;
    expect(theirs.all(fid)).toHaveLength(1);
    index.db.q("DELETE FROM lines WHERE fid = ? AND off = 999999999").run(fid);
    await indexStaleText(index.db, undefined, { toolsAtOnce: true });
    const grown = index.db
      .q("SELECT off, tool FROM lines WHERE fid = ? AND off >= ? ORDER BY off, tool")
      .all(fid, grownFrom);
    expect(grown).toEqual(offsets.map((off) => ({ off, tool: 0 })));
    const twice = index.db.q(
      "SELECT off, tool, count(*) AS n FROM lines WHERE fid = ? GROUP BY off, tool HAVING n > 1",
    );
    expect(twice.all(fid)).toEqual([]);
    index.close();
  }, 60_000);
});

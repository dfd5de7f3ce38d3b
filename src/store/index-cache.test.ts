import { appendFileSync, copyFileSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { user, writeBranchedSession } from "../../test/helpers/session-file.js";
import { settle } from "../../test/helpers/tmp-store.js";
import { IndexCache } from "./index-cache.js";
import { loadSessionIndex, type SessionIndex } from "./session-index.js";

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function setup(capacity = 2) {
  const s = writeBranchedSession();
  settle(s.path);
  cleanups.push(s.cleanup);
  const loads: string[] = [];
  const cache = new IndexCache(capacity, (p) => {
    loads.push(p);
    return loadSessionIndex(p, { skim: true });
  });
  return { ...s, cache, loads };
}

describe("IndexCache", () => {
  it("reads a session once while its file is unchanged", async () => {
    const { path, cache, loads } = setup();
    const a = await cache.get(path);
    const b = await cache.get(path);
    expect(b).toBe(a);
    expect(loads).toHaveLength(1);
  });

  it("shares a read under way (the tree opened while the preview loads)", async () => {
    const { path, cache, loads } = setup();
    const [a, b] = await Promise.all([cache.get(path), cache.get(path)]);
    expect(b).toBe(a);
    expect(loads).toHaveLength(1);
  });

  it("reads again after an append, and sees it", async () => {
    const { path, cache, loads } = setup();
    const a = await cache.get(path);
    appendFileSync(path, JSON.stringify(user("u9", "l1", "appended later")) + "\n");
    const b = await cache.get(path);
    expect(loads).toHaveLength(2);
    expect(b).not.toBe(a);
    expect(b.leafId).toBe("u9");
  });

  it("reads again when the file was replaced by another with the same size", async () => {
    const { path, dir, cache, loads } = setup();
    await cache.get(path);
    const other = `${dir}/other.jsonl`;
    copyFileSync(path, other);
    renameSync(other, path); // a new inode under the same name
    await cache.get(path);
    expect(loads).toHaveLength(2);
  });

  it("keeps only the most recently used sessions", async () => {
    const { cache, loads } = setup(1);
    const one = writeBranchedSession();
    const two = writeBranchedSession();
    settle(one.path, two.path);
    cleanups.push(one.cleanup, two.cleanup);
    await cache.get(one.path);
    await cache.get(two.path);
    await cache.get(one.path);
    expect(loads).toEqual([one.path, two.path, one.path]);
  });

  it("passes a failed read on and does not keep it", async () => {
    let fail = true;
    const { path } = setup();
    const cache = new IndexCache(2, async (p) => {
      if (fail) throw new Error("boom");
      return { path: p } as SessionIndex;
    });
    await expect(cache.get(path)).rejects.toThrow("boom");
    fail = false;
    await expect(cache.get(path)).resolves.toMatchObject({ path });
  });
});

describe("IndexCache and a rewrite that puts the mtime back", () => {
  it("reads again when the file was rewritten at the same size with its mtime put back (its ctime changed)", async () => {
    const { path, cache, loads } = setup();
    await cache.get(path);
    const was = statSync(path);
    const text = readFileSync(path, "utf8");
    writeFileSync(path, text.replace("first question", "FIRST QUESTION"));
    utimesSync(path, was.atime, was.mtime);
    expect([statSync(path).size, statSync(path).mtimeMs, statSync(path).ino]).toEqual([was.size, was.mtimeMs, was.ino]);
    await cache.get(path);
    expect(loads).toHaveLength(2);
  });
});

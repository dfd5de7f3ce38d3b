import { appendFileSync, mkdirSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir } from "../../test/helpers/tmp-store.js";
import { discoverFiles } from "./discover.js";
import { storeFingerprint } from "./store-fingerprint.js";

const file = { path: "/s/--p--/a.jsonl", bytes: 10, mtimeMs: 1795600000000.25, ino: 7 };

describe("the store's fingerprint", () => {
  const store = (over: Partial<typeof file> = {}, more: (typeof file)[] = []) => ({
    files: [{ ...file, ...over }, ...more],
    diagnostics: [] as { path: string; kind: "unreadable"; reason: string }[],
  });

  it("is the same for the same store, and changes with any file's path, inode, size or mtime", () => {
    const base = storeFingerprint(store());
    expect(storeFingerprint(store())).toBe(base);
    const changed = [
      store({ path: "/s/--p--/b.jsonl" }),
      store({ ino: 8 }),
      store({ ino: undefined }),
      store({ bytes: 11 }),
      store({ mtimeMs: 1795600000000.5 }),
      store({}, [{ ...file, path: "/s/--p--/c.jsonl" }]),
      { files: [], diagnostics: [] },
    ].map(storeFingerprint);
    expect(new Set([base, ...changed]).size).toBe(changed.length + 1);
  });

  it("changes with the problems discovery met", () => {
    const a = store();
    const b = store();
    b.diagnostics.push({ path: "/s/--p--", kind: "unreadable", reason: "EACCES" });
    expect(storeFingerprint(b)).not.toBe(storeFingerprint(a));
  });

  it("does not run two paths into one", () => {
    const two = { files: [file, { ...file, path: "/s/x" }], diagnostics: [] };
    const joined = { files: [{ ...file, path: `${file.path}\0/s/x` }], diagnostics: [] };
    expect(storeFingerprint(two)).not.toBe(storeFingerprint(joined));
  });
});

describe("the fingerprint of what discovery found", () => {
  it("is the same from its columns as from its records, and follows a file's size, mtime, ctime, inode and name", async () => {
    try {
      const root = makeTmpDir();
      for (const p of ["--a--", "--b--"]) mkdirSync(join(root, p));
      writeFileSync(join(root, "flat.jsonl"), "x");
      writeFileSync(join(root, "--a--", "1.jsonl"), "xx");
      writeFileSync(join(root, "--a--", "2.jsonl"), "xxx");
      writeFileSync(join(root, "--b--", "3.jsonl"), "xxxx");
      const seen = new Set<string>();
      const look = async () => {
        const found = await discoverFiles(root, { yielding: false, fromInside: true });
        const fromColumns = storeFingerprint(found);
        const records = { files: found.files.map((f) => ({ ...f })), diagnostics: [...found.diagnostics] };
        expect(storeFingerprint(records)).toBe(fromColumns);
        expect(seen.has(fromColumns)).toBe(false);
        seen.add(fromColumns);
        return fromColumns;
      };
      const first = await look();
      expect((await discoverFiles(root)).files.length).toBe(4);
      expect(storeFingerprint(await discoverFiles(root))).toBe(first);
      appendFileSync(join(root, "--a--", "1.jsonl"), "y");
      await look();
      utimesSync(join(root, "--b--", "3.jsonl"), new Date(1e12), new Date(1e12));
      await look();
      renameSync(join(root, "--a--", "2.jsonl"), join(root, "--a--", "4.jsonl"));
      await look();
      // Moved to the other folder: the same names, in other folders.
      renameSync(join(root, "--a--", "4.jsonl"), join(root, "--b--", "4.jsonl"));
      await look();
    } finally {
      cleanupTmp();
    }
  });

  it("does not run one folder's names into the next's", () => {
    const f = (path: string) => ({ ...file, path });
    const a = { files: [f("/s/--p--/a.jsonl"), f("/s/--q--/b.jsonl")], diagnostics: [] };
    const b = { files: [f("/s/--p--/a.jsonl"), f("/s/--p--/--q--/b.jsonl")], diagnostics: [] };
    const c = { files: [f("/s/--p--/a.jsonl"), f("/s/--p--/b.jsonl")], diagnostics: [] };
    expect(new Set([a, b, c].map(storeFingerprint)).size).toBe(3);
  });
});

import { describe, expect, it } from "vitest";
import { storeFingerprint } from "./store-fingerprint.js";

describe("the store's fingerprint", () => {
  const file = { path: "/s/--p--/a.jsonl", bytes: 10, mtimeMs: 1795600000000.25, ino: 7 };
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

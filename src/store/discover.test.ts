import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { isMainThread } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir } from "../../test/helpers/tmp-store.js";
import { discoverFiles } from "./discover.js";
import { fsPath } from "./fs-path.js";

afterEach(cleanupTmp);

describe("discoverFiles", () => {
  it("names every file by a string that goes back to its bytes, UTF-8 or not, U+FFFD in a name or not", async () => {
    const root = makeTmpDir();
    const plain = join(root, "--plain--");
    const mixed = join(root, "--mixed--");
    mkdirSync(plain);
    mkdirSync(mixed);
    writeFileSync(join(plain, "a.jsonl"), "x");
    // A name that is UTF-8 and holds U+FFFD itself, beside one that is not UTF-8 at all.
    writeFileSync(join(mixed, "odd\ufffd.jsonl"), "xx");
    writeFileSync(Buffer.concat([Buffer.from(mixed + "/"), Buffer.from("r\xe9sum\xe9.jsonl", "latin1")]), "xxx");
    // A folder whose name is not UTF-8, holding a file whose name is.
    const oddFolder = Buffer.concat([Buffer.from(root + "/"), Buffer.from("--caf\xe9--", "latin1")]);
    mkdirSync(oddFolder);
    writeFileSync(Buffer.concat([oddFolder, Buffer.from("/b.jsonl")]), "xxxx");
    const { files, diagnostics } = await discoverFiles(root);
    expect(diagnostics).toEqual([]);
    const bytes = files.map((f) => Buffer.from(fsPath(f.path)).toString("latin1")).sort();
    expect(bytes).toEqual(
      [
        Buffer.from(join(plain, "a.jsonl")),
        Buffer.from(join(mixed, "odd\ufffd.jsonl")),
        Buffer.concat([Buffer.from(mixed + "/"), Buffer.from("r\xe9sum\xe9.jsonl", "latin1")]),
        Buffer.concat([oddFolder, Buffer.from("/b.jsonl")]),
      ]
        .map((b) => b.toString("latin1"))
        .sort(),
    );
    expect(files.map((f) => f.bytes).sort()).toEqual([1, 2, 3, 4]);
  });

  it("finds the same from inside each folder as by full paths, and leaves the working folder as it was", async () => {
    const root = makeTmpDir();
    const plain = join(root, "--plain--");
    mkdirSync(plain);
    writeFileSync(join(plain, "a.jsonl"), "x");
    writeFileSync(Buffer.concat([Buffer.from(plain + "/"), Buffer.from("r\xe9sum\xe9.jsonl", "latin1")]), "xx");
    symlinkSync(join(root, "gone.jsonl"), join(plain, "dangling.jsonl"));
    writeFileSync(join(root, "flat.jsonl"), "xxx");
    const elsewhere = makeTmpDir();
    writeFileSync(join(elsewhere, "linked.jsonl"), "xxxx");
    symlinkSync(elsewhere, join(root, "--linked--"));
    const oddFolder = Buffer.concat([Buffer.from(root + "/"), Buffer.from("--caf\xe9--", "latin1")]);
    mkdirSync(oddFolder);
    writeFileSync(Buffer.concat([oddFolder, Buffer.from("/b.jsonl")]), "xxxxx");
    // From inside only on the main thread, where nothing else runs meanwhile.
    expect(isMainThread).toBe(true);
    const byPath = await discoverFiles(root);
    const here = process.cwd();
    const inside = await discoverFiles(root, { yielding: false, fromInside: true });
    expect(process.cwd()).toBe(here);
    expect([inside.files, inside.diagnostics]).toEqual([byPath.files, byPath.diagnostics]);
    expect(inside.diagnostics.map((d) => [d.path, d.reason])).toEqual([[join(plain, "dangling.jsonl"), "ENOENT"]]);
    expect(inside.files.length).toBe(5);
    // A store named relative to the working folder: by full paths (a folder entered would move it).
    process.chdir(dirname(root));
    try {
      const relFound = await discoverFiles(basename(root), { yielding: false, fromInside: true });
      expect(relFound.files.map((f) => f.path).sort()).toEqual(
        byPath.files.map((f) => relative(dirname(root), f.path)).sort(),
      );
      expect(process.cwd()).toBe(dirname(root));
    } finally {
      process.chdir(here);
    }
  });

  it("finds the same when the working folder is gone", async () => {
    const root = makeTmpDir();
    mkdirSync(join(root, "--p--"));
    writeFileSync(join(root, "--p--", "a.jsonl"), "x");
    const gone = makeTmpDir();
    const here = process.cwd();
    process.chdir(gone);
    rmSync(gone, { recursive: true });
    try {
      const found = await discoverFiles(root, { yielding: false, fromInside: true });
      expect(found.files.map((f) => f.path)).toEqual([join(root, "--p--", "a.jsonl")]);
    } finally {
      process.chdir(here);
    }
  });

  it("gives each file statSync's inode, size, mtime and ctime, and lists no folder or fifo named .jsonl", async () => {
    const root = makeTmpDir();
    const project = join(root, "--p--");
    mkdirSync(project);
    mkdirSync(join(project, "dir.jsonl"));
    expect(spawnSync("mkfifo", [join(project, "p.jsonl")]).status).toBe(0);
    const paths = ["a.jsonl", "b.jsonl", "c.jsonl"].map((n) => join(project, n));
    paths.forEach((path, i) => writeFileSync(path, "x".repeat(100 * (i + 1))));
    utimesSync(paths[1], 1_700_000_000.123456, 1_600_000_000.987654);
    for (const options of [{}, { yielding: false, fromInside: true }]) {
      const { files, diagnostics } = await discoverFiles(root, options);
      expect(diagnostics).toEqual([]);
      expect(files.map((f) => f.path).sort()).toEqual(paths);
      for (const f of files) {
        const st = statSync(f.path);
        expect([f.ino, f.bytes, f.mtimeMs, f.ctimeMs], f.path).toEqual([st.ino, st.size, st.mtimeMs, st.ctimeMs]);
      }
    }
  });
});

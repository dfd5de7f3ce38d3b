import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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
});

import { closeSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir } from "../../../test/helpers/tmp-store.js";
import { chunksOf, keptBytes, keptFileOf, wholeCharsEnd } from "./kept-file.js";

afterEach(() => cleanupTmp());

describe("kept files", () => {
  it("cut a chunk before a character its end would split", () => {
    const b = Buffer.from("aé—😀");
    // a (1), é (2), — (3), 😀 (4): ends at 1, 3, 6, 10.
    const ends = Array.from({ length: b.length + 1 }, (_, n) => wholeCharsEnd(b, n));
    expect(ends).toEqual([0, 1, 1, 3, 3, 3, 6, 6, 6, 6, 10]);
  });

  it("read an answer's bytes after its header, whole characters a chunk at a time, and by offset", () => {
    const path = join(makeTmpDir(), "answer");
    writeFileSync(path, "header\naé—😀z");
    const f = keptFileOf(openSync(path, "r"), "e", 7, 11, Buffer.alloc(4));
    const into = Buffer.alloc(3);
    expect(f.read(into, 1)).toBe(3);
    expect(into.subarray(0, 2).toString()).toBe("é");
    // Each copied as it comes: they share one buffer.
    const chunks = Array.from(f.chunks(), (c) => Buffer.from(c).toString());
    expect(chunks).toEqual(["aé", "—", "😀", "z"]);
    expect(keptBytes("e", Buffer.from("[1]")).bytes).toBe(3);
  });

  it("fail saying so when the file is shorter than its answer", () => {
    const path = join(makeTmpDir(), "answer");
    writeFileSync(path, "abc");
    const fd = openSync(path, "r");
    try {
      expect(() => [...chunksOf(fd, Buffer.alloc(2), 0, 5, true)]).toThrow("a kept answer was cut short while read");
    } finally {
      closeSync(fd);
    }
  });
});

import { closeSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir } from "../../test/helpers/tmp-store.js";
import { readRange } from "./read-range.js";

afterEach(() => cleanupTmp());

describe("readRange", () => {
  it("reads a range into a new buffer, or into the one given, short at the end of the file", () => {
    const path = join(makeTmpDir(), "f");
    writeFileSync(path, "0123456789");
    const fd = openSync(path, "r");
    try {
      expect(readRange(fd, 2, 3).toString()).toBe("234");
      expect(readRange(fd, 8, 5).toString()).toBe("89");
      const into = Buffer.alloc(16, "x");
      const got = readRange(fd, 0, 4, into);
      expect(got.toString()).toBe("0123");
      // The bytes are the given buffer's, not a copy.
      expect(got.buffer).toBe(into.buffer);
      expect(readRange(fd, 6, 10, into).toString()).toBe("6789");
    } finally {
      closeSync(fd);
    }
  });
});

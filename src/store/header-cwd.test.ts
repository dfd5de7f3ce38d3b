import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readHeaderCwd } from "./header-cwd.js";

const dir = mkdtempSync(join(tmpdir(), "pi-sessions-header-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe("readHeaderCwd", () => {
  it("reads the header's cwd", () => {
    expect(readHeaderCwd(file("a.jsonl", '{"type":"session","id":"a","cwd":"/srv/web app"}\n{"type":"x"}\n'))).toBe(
      "/srv/web app",
    );
  });

  it("is undefined for a missing file, a torn or headerless first line, or a header without a cwd", () => {
    expect(readHeaderCwd(join(dir, "none.jsonl"))).toBeUndefined();
    expect(readHeaderCwd(file("b.jsonl", '{"type":"session","cwd":"/a"'))).toBeUndefined();
    expect(readHeaderCwd(file("c.jsonl", '{"type":"message","cwd":"/a"}\n'))).toBeUndefined();
    expect(readHeaderCwd(file("d.jsonl", '{"type":"session","id":"d"}\n'))).toBeUndefined();
    expect(readHeaderCwd(file("e.jsonl", "\xff\xfe garbage\n"))).toBeUndefined();
  });
});

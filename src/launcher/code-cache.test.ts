import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codeCachePath, decodeCache, encodeCache, identify, writeCacheFile } from "./code-cache.js";

const source = Buffer.from("module.exports = 42;\n");
const data = Buffer.from("pretend this is V8 bytecode");

describe("code cache file", () => {
  it("reads back what it wrote for the same source and runtime", () => {
    const id = identify(source, "v20.0.0 x64");
    expect(decodeCache(id, encodeCache(id, data))?.equals(data)).toBe(true);
  });

  it("is ignored for another source, even of the same length", () => {
    const file = encodeCache(identify(source, "v20.0.0 x64"), data);
    const other = Buffer.from("module.exports = 43;\n");
    expect(other.length).toBe(source.length);
    expect(decodeCache(identify(other, "v20.0.0 x64"), file)).toBeUndefined();
  });

  it("is ignored for another Node build", () => {
    const file = encodeCache(identify(source, "v20.0.0 x64"), data);
    expect(decodeCache(identify(source, "v20.0.1 x64"), file)).toBeUndefined();
    expect(decodeCache(identify(source, "v20.0.0 arm64"), file)).toBeUndefined();
  });

  it("is ignored when any byte is damaged or the file is cut short", () => {
    const id = identify(source, "v20.0.0 x64");
    const file = encodeCache(id, data);
    for (let i = 0; i < file.length; i++) {
      const bad = Buffer.from(file);
      bad[i] ^= 0x01;
      expect(decodeCache(id, bad), `byte ${i}`).toBeUndefined();
    }
    for (let n = 0; n < file.length; n++) expect(decodeCache(id, file.subarray(0, n)), `length ${n}`).toBeUndefined();
    expect(decodeCache(id, Buffer.alloc(0))).toBeUndefined();
  });

  it("is written whole, through a temporary file", () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-sessions-cc-"));
    const path = join(dir, "nested", "code.v8");
    writeCacheFile(path, Buffer.from("one"));
    writeCacheFile(path, Buffer.from("two"));
    expect(readFileSync(path, "utf8")).toBe("two");
    expect(readdirSync(join(dir, "nested"))).toEqual(["code.v8"]);
  });
});

describe("codeCachePath", () => {
  const app = "/opt/pi-sessions/dist/bundle/app.cjs";
  it("lives in the user's cache folder, one file per install", () => {
    expect(codeCachePath(app, {}, "/home/u", "linux")).toMatch(/^\/home\/u\/\.cache\/pi-sessions\/code-[0-9a-f]{8}\.v8$/);
    expect(codeCachePath(app, { XDG_CACHE_HOME: "/x" }, "/home/u", "linux")).toMatch(/^\/x\/pi-sessions\//);
    expect(codeCachePath(app, {}, "/Users/u", "darwin")).toMatch(/^\/Users\/u\/Library\/Caches\/pi-sessions\//);
    expect(codeCachePath(app, { PI_SESSIONS_CACHE_DIR: "/c" }, "/home/u", "linux")).toMatch(/^\/c\/code-/);
    expect(codeCachePath(app, {}, "/home/u", "linux")).not.toBe(codeCachePath("/other/app.cjs", {}, "/home/u", "linux"));
  });

  it("is off on request or without a home", () => {
    expect(codeCachePath(app, { PI_SESSIONS_CODE_CACHE: "0" }, "/home/u", "linux")).toBeUndefined();
    expect(codeCachePath(app, {}, "", "linux")).toBeUndefined();
  });
});

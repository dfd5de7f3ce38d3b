import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadScript } from "./load-script.js";

interface Exports {
  answer(): number;
  url: string;
  dir: string;
  sep: string;
}

function fixture() {
  const dir = mkdtempSync(join(tmpdir(), "pi-sessions-load-"));
  const file = join(dir, "app.cjs");
  // A CommonJS module using what the bundle uses: require, module.exports, the URL stand-in.
  writeFileSync(file, "const { sep } = require('node:path');\nfunction answer() { return [1, 2, 3].reduce((a, b) => a + b, 36); }\nmodule.exports = { answer, url: __piSessionsUrl, dir: __dirname, sep };\n");
  return { dir, file, cache: join(dir, "cache", "app.v8") };
}

describe("loadScript", () => {
  it("runs a CommonJS script with require, module and its own URL", () => {
    const { dir, file } = fixture();
    const s = loadScript<Exports>(file);
    expect(s.status).toBe("off");
    expect(s.exports.answer()).toBe(42);
    expect(s.exports.url).toBe(`file://${file}`);
    expect(s.exports.dir).toBe(dir);
    expect(s.exports.sep).toBe("/");
    expect(s.save()).toBe(false);
  });

  it("writes a cache that the next load uses", () => {
    const { file, cache } = fixture();
    const first = loadScript<Exports>(file, cache);
    expect(first.status).toBe("none");
    first.exports.answer();
    expect(first.save()).toBe(true);
    const second = loadScript<Exports>(file, cache);
    expect(second.status).toBe("accepted");
    expect(second.exports.answer()).toBe(42);
    expect(second.save()).toBe(false); // already in use: nothing to write
  });

  it("compiles from source when the cache is damaged or stale, then replaces it", () => {
    const { file, cache } = fixture();
    loadScript<Exports>(file, cache).save();
    const bytes = readFileSync(cache);
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(cache, bytes);
    const damaged = loadScript<Exports>(file, cache);
    expect(damaged.status).toBe("none");
    expect(damaged.exports.answer()).toBe(42);
    expect(damaged.save()).toBe(true);
    expect(loadScript<Exports>(file, cache).status).toBe("accepted");
    // The program changed: the cache no longer fits it.
    writeFileSync(file, readFileSync(file, "utf8").replace("36", "37"));
    const changed = loadScript<Exports>(file, cache);
    expect(changed.status).toBe("none");
    expect(changed.exports.answer()).toBe(43);
  });

  it("goes without a cache where it cannot write one", () => {
    const { file } = fixture();
    // A folder that cannot be made (a file stands in its way), whoever runs the test.
    const s = loadScript<Exports>(file, join(file, "cache", "app.v8"));
    expect(s.status).toBe("none");
    expect(s.exports.answer()).toBe(42);
    expect(s.save()).toBe(false);
  });
});

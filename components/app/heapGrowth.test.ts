import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from "./heapGrowth.js";

const MODULE = fileURLToPath(new URL("./heapGrowth.ts", import.meta.url));

/** V8's own account of the old space's next limit after a full collection, in a node that ran `script` first. */
function limitsAfter(script: string): string {
  const r = spawnSync(
    process.execPath,
    [
      "--experimental-strip-types",
      "--no-warnings",
      "--expose-gc",
      "--trace-gc-verbose",
      "--input-type=module",
      "-e",
      // Two full collections: the first seen by the browser's observer, the second after it.
      `${script}\nconst keep = Array.from({ length: 200000 }, (_, i) => ({ i })); gc();\n` +
        `await new Promise((r) => setTimeout(r, 50)); gc(); globalThis.k = keep;`,
    ],
    { encoding: "utf8" },
  );
  expect(r.status, r.stderr).toBe(0);
  return r.stdout
    .split("\n")
    .filter((l) => l.includes("[HeapController] Limit"))
    .join("\n");
}

describe("the browser's heap growth", () => {
  it("is set for the browser unless node was started with its own", () => {
    expect(heapGrowthFlag([])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(["--heap-growing-percent=0"])).toBeUndefined();
    expect(heapGrowthFlag(["--heap_growing_percent=20"])).toBeUndefined();
    expect(heapGrowthFlag(["--max-old-space-size=900"])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  });

  it("is set only on the V8 releases known to have it (V8 prints an unknown flag's error on the screen)", () => {
    expect(heapGrowthFlag([], "12.4.254.21-node.33")).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag([], "14.1.146.11-node.14")).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag([], "15.0.1")).toBeUndefined();
    expect(heapGrowthFlag([], "10.2.154.26-node.26")).toBeUndefined();
  });

  it("is not set when node's flags are frozen (setting one would abort the process)", () => {
    expect(heapGrowthFlag(["--freeze-flags-after-init"])).toBeUndefined();
    expect(heapGrowthFlag(["--freeze_flags_after_init"])).toBeUndefined();
    const r = spawnSync(
      process.execPath,
      [
        "--freeze-flags-after-init",
        "--experimental-strip-types",
        "--no-warnings",
        "--expose-gc",
        "--input-type=module",
        "-e",
        `(await import(${JSON.stringify(MODULE)})).holdHeapGrowth(process.execArgv, 1024 * 1024);\n` +
          `const keep = Array.from({ length: 200000 }, (_, i) => ({ i })); gc();\n` +
          `await new Promise((r) => setTimeout(r, 50)); gc(); globalThis.k = keep; console.log("ran");`,
      ],
      { encoding: "utf8" },
    );
    expect(r.stdout, r.stderr).toContain("ran");
    expect(r.status, r.stderr).toBe(0);
  });

  it("cannot be given in NODE_OPTIONS (node refuses it there), so only node's arguments are read", () => {
    const r = spawnSync(process.execPath, ["-e", "0"], {
      env: { ...process.env, NODE_OPTIONS: "--heap-growing-percent=50" },
      encoding: "utf8",
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("not allowed in NODE_OPTIONS");
  });

  it("is set after a full collection only: a young one leaves the old space's garbage in the heap's size", () => {
    const factor = `(${(1 + HEAP_GROWING_PERCENT / 100).toFixed(1)})`;
    // Young collections only (short-lived objects), each leaving more than 1 MB in use, then two full ones.
    const limits = limitsAfter(
      `(await import(${JSON.stringify(MODULE)})).holdHeapGrowth([], 1024 * 1024)();\n` +
        `let junk = []; for (let i = 0; i < 3e6; i++) { junk.push({ i }); if (junk.length > 1000) junk = []; }\n` +
        `await new Promise((r) => setTimeout(r, 100));`,
    ).split("\n");
    expect(limits.length).toBeGreaterThanOrEqual(2);
    // Held after a young collection, V8's first full one would already use the factor.
    expect(limits[0]).not.toContain(factor);
    expect(limits.at(-1)).toContain(factor);
  });

  it("is set only once the modules are loaded (a changed flag would reject their compile cache)", () => {
    const factor = `(${(1 + HEAP_GROWING_PERCENT / 100).toFixed(1)})`;
    const load = `const loaded = (await import(${JSON.stringify(MODULE)})).holdHeapGrowth([], 1024 * 1024);`;
    expect(limitsAfter(load)).not.toContain(factor);
    // A full collection seen before they were loaded holds the growth from the next one after.
    const limits = limitsAfter(
      `${load}\nconst early = Array.from({ length: 200000 }, (_, i) => ({ i })); gc();\n` +
        `await new Promise((r) => setTimeout(r, 50)); loaded(); globalThis.e = early;`,
    ).split("\n");
    expect(limits[0]).not.toContain(factor);
    expect(limits.at(-1)).toContain(factor);
  });

  it("holds V8's next limit at that factor of what the last full collection found alive, once that is large", () => {
    const factor = `(${(1 + HEAP_GROWING_PERCENT / 100).toFixed(1)})`;
    const hold = (from: number) => `(await import(${JSON.stringify(MODULE)})).holdHeapGrowth([], ${from})();`;
    expect(limitsAfter(hold(1024 * 1024))).toContain(factor);
    // A heap with less alive than that is left to V8 (4× for a heap this small and fast to collect).
    expect(limitsAfter(hold(1024 * 1024 * 1024))).not.toContain(factor);
    expect(limitsAfter("")).not.toContain(factor);
  });
});

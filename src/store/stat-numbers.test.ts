import { appendFileSync, mkdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir } from "../../test/helpers/tmp-store.js";
import { bindingAllowed, resetStatNumbers, statNumbers, statNumbersFast } from "./stat-numbers.js";

const proc = process as unknown as { binding: (name: string) => unknown };
const realBinding = proc.binding;
const realExecArgv = [...process.execArgv];
const realVersion = Object.getOwnPropertyDescriptor(process.versions, "node")!;

afterEach(() => {
  proc.binding = realBinding;
  process.execArgv.splice(0, Infinity, ...realExecArgv);
  Object.defineProperty(process.versions, "node", realVersion);
  resetStatNumbers();
  cleanupTmp();
});

/** What statSync says of `path` in statNumbers's terms, or the code it throws. */
function viaStatSync(path: string): unknown {
  try {
    const st = statSync(path);
    return [[st.ino, st.size, st.mtimeMs, st.ctimeMs], st.isFile()];
  } catch (err) {
    return (err as NodeJS.ErrnoException).code;
  }
}

function viaStatNumbers(path: string | Buffer): unknown {
  const out = new Float64Array(8).fill(-1);
  try {
    const file = statNumbers(path, out, 4);
    return [[...out.subarray(4)], file];
  } catch (err) {
    return (err as NodeJS.ErrnoException).code;
  }
}

/** A file, a folder, links to each, a dangling link and nothing at all, some with fractional times. */
function someEntries(): string[] {
  const dir = makeTmpDir();
  const file = join(dir, "a.jsonl");
  writeFileSync(file, "x".repeat(1234));
  utimesSync(file, 1_700_000_000.123456, 1_600_000_000.987654);
  mkdirSync(join(dir, "folder"));
  symlinkSync(file, join(dir, "link.jsonl"));
  symlinkSync(join(dir, "folder"), join(dir, "folder-link"));
  symlinkSync(join(dir, "nothing"), join(dir, "dangling.jsonl"));
  return ["a.jsonl", "folder", "link.jsonl", "folder-link", "dangling.jsonl", "missing.jsonl"].map((n) => join(dir, n));
}

describe("statNumbers", () => {
  it("says what statSync says, number for number, and throws what it throws", () => {
    const paths = someEntries();
    for (const path of paths) expect(viaStatNumbers(path), path).toEqual(viaStatSync(path));
    expect(viaStatNumbers(Buffer.from(paths[0]))).toEqual(viaStatSync(paths[0]));
    // The binding's own errors (ENOENT above) leave it on.
    if (bindingAllowed()) expect(statNumbersFast()).toBe(true);
  });

  it("goes through Node's own stat binding on this Node, with no fs.Stats object", () => {
    const [file] = someEntries();
    expect(statNumbersFast()).toBeUndefined();
    viaStatNumbers(file);
    expect(statNumbersFast()).toBe(true);
  });

  it("decides on the first file statSync can stat (a dangling link first says nothing of the binding)", () => {
    const paths = someEntries();
    expect(viaStatNumbers(paths[4])).toBe("ENOENT");
    expect(viaStatNumbers(paths[5])).toBe("ENOENT");
    expect(statNumbersFast()).toBeUndefined();
    expect(viaStatNumbers(paths[0])).toEqual(viaStatSync(paths[0]));
    expect(statNumbersFast()).toBe(true);
  });

  it("decides only on a path given as a string (a name that is not UTF-8 goes as bytes)", () => {
    const [file] = someEntries();
    expect(viaStatNumbers(Buffer.from(file))).toEqual(viaStatSync(file));
    expect(statNumbersFast()).toBeUndefined();
  });

  it("uses statSync when process.binding would warn (--pending-deprecation wraps it)", () => {
    let asked = 0;
    proc.binding = function deprecated(name: string) {
      asked++;
      return realBinding(name);
    };
    const paths = someEntries();
    for (const path of paths) expect(viaStatNumbers(path), path).toEqual(viaStatSync(path));
    expect(statNumbersFast()).toBe(false);
    expect(asked).toBe(0);
  });

  it("uses statSync when the binding is missing, refused, or says otherwise than statSync", () => {
    const fakes: Array<() => unknown> = [
      () => undefined,
      () => {
        throw Object.assign(new Error("denied"), { code: "ERR_ACCESS_DENIED" });
      },
      () => ({ stat: () => new Float64Array(18) }),
      () => ({ stat: () => [1, 2, 3] }),
    ];
    for (const fake of fakes) {
      resetStatNumbers();
      proc.binding = function binding() {
        return fake();
      };
      const paths = someEntries();
      for (const path of paths) expect(viaStatNumbers(path), path).toEqual(viaStatSync(path));
      expect(statNumbersFast()).toBe(false);
    }
  });

  it("is tried only on the Node majors it was checked on (22, 24)", () => {
    for (const [version, allowed] of [
      ["22.19.0", true],
      ["22.23.3", true],
      ["24.22.3", true],
      ["20.20.2", false],
      ["23.11.0", false],
      ["25.0.0", false],
      ["26.1.0", false],
    ] as const) {
      expect(bindingAllowed(version, [], "", false), version).toBe(allowed);
      resetStatNumbers();
      Object.defineProperty(process.versions, "node", { ...realVersion, value: version });
      const [file] = someEntries();
      expect(viaStatNumbers(file)).toEqual(viaStatSync(file));
      expect(statNumbersFast(), version).toBe(allowed);
    }
  });

  it("uses statSync under a flag that could make process.binding warn, throw or be refused", () => {
    const flags = ["--pending-deprecation", "--throw-deprecation", "--trace-deprecation", "--permission"];
    for (const flag of flags) {
      expect(bindingAllowed("22.19.0", [flag], "", false), flag).toBe(false);
      expect(bindingAllowed("22.19.0", [], `--max-old-space-size=100 ${flag}`, false), flag).toBe(false);
      resetStatNumbers();
      process.execArgv.splice(0, Infinity, ...realExecArgv, flag);
      const [file] = someEntries();
      expect(viaStatNumbers(file)).toEqual(viaStatSync(file));
      expect(statNumbersFast(), flag).toBe(false);
    }
    expect(bindingAllowed("22.19.0", [], "", true)).toBe(false);
    expect(bindingAllowed("22.19.0", ["--no-warnings"], "--max-old-space-size=100", false)).toBe(true);
  });

  it("leaves the decision to the next file when the one it is judged on is being written", () => {
    const dir = makeTmpDir();
    const growing = join(dir, "growing.jsonl");
    const still = join(dir, "still.jsonl");
    writeFileSync(growing, "x");
    writeFileSync(still, "xx");
    const real = (realBinding("fs") as { stat: (...a: unknown[]) => Float64Array }).stat;
    let writes = 0;
    proc.binding = function binding() {
      return {
        // The writer appends between statSync's answer and the binding's.
        stat(path: string, ...rest: unknown[]) {
          if (path === growing) {
            appendFileSync(growing, "more");
            writes++;
          }
          return real(path, ...rest);
        },
      };
    };
    const [numbers] = viaStatNumbers(growing) as [number[], boolean];
    expect(writes).toBe(1);
    expect(numbers[1]).toBeGreaterThanOrEqual(1);
    expect(statNumbersFast()).toBeUndefined();
    expect(viaStatNumbers(still)).toEqual(viaStatSync(still));
    expect(statNumbersFast()).toBe(true);
  });

  it("uses statSync for the rest of the run when the binding throws an error with no errno code", () => {
    const [file] = someEntries();
    const real = (realBinding("fs") as { stat: (...a: unknown[]) => Float64Array }).stat;
    let calls = 0;
    proc.binding = function binding() {
      return {
        stat(...args: unknown[]) {
          // Right when judged and for the first file, then as if its signature had changed.
          if (calls++ > 1) throw new TypeError('The "path" argument must be of type string');
          return real(...args);
        },
      };
    };
    expect(viaStatNumbers(file)).toEqual(viaStatSync(file));
    expect(statNumbersFast()).toBe(true);
    expect(viaStatNumbers(file)).toEqual(viaStatSync(file));
    expect(statNumbersFast()).toBe(false);
    const asked = calls;
    expect(viaStatNumbers(file)).toEqual(viaStatSync(file));
    expect(calls).toBe(asked);
  });

  it('sends a path holding "\\0" to statSync, judged or not', () => {
    const [file] = someEntries();
    expect(viaStatNumbers(file + "\0")).toBe(viaStatSync(file + "\0"));
    expect(statNumbersFast()).toBeUndefined();
    expect(viaStatNumbers(file)).toEqual(viaStatSync(file));
    expect(viaStatNumbers(file + "\0.jsonl")).toBe("ERR_INVALID_ARG_VALUE");
    expect(viaStatNumbers(file + "\0")).toBe(viaStatSync(file + "\0"));
  });
});

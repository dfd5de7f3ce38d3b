import { statSync } from "node:fs";

/*
 * A file's inode, size, mtime and ctime, as fs.Stats gives them, without an fs.Stats
 * object: discovery stats every session file at every launch, and a Stats object each (14
 * fields, made and collected) was ~40 % of its CPU at 10,000 files. Node's own stat binding
 * (what statSync calls) fills one array of numbers instead; it is used only when it is
 * there as Node 22 has it, says nothing (process.binding is wrapped to warn under
 * --pending-deprecation: then it is not used) and gives the first file exactly what
 * statSync gives. Anything else, and every error, goes through statSync itself.
 */

type StatArray = Float64Array;
interface StatBinding {
  stat(path: string, bigint: false, req: undefined, throwIfNoEntry: true): StatArray;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;

/** Node's way from the binding's seconds and nanoseconds to fs.Stats's milliseconds (msFromTimeSpec). */
const ms = (sec: number, nsec: number) => sec * 1000 + nsec / 1_000_000;

/** undefined: not tried yet; null: statSync for everything. */
let fast: StatBinding | null | undefined;

/** The binding, when it can be asked without a word on stderr. */
function candidate(): StatBinding | null {
  try {
    const proc = process as unknown as { binding?: ((name: string) => unknown) & { name: string } };
    if (typeof proc.binding !== "function" || proc.binding.name !== "binding") return null;
    const b = proc.binding("fs") as Partial<StatBinding> | undefined;
    return typeof b?.stat === "function" ? (b as StatBinding) : null;
  } catch {
    return null; // the permission model, or a Node without it
  }
}

/**
 * The binding when its array for `path` says what statSync says of it, else null; undefined
 * when statSync cannot stat `path` (nothing to compare: a later file decides).
 */
function decide(path: string): StatBinding | null | undefined {
  let st;
  try {
    st = statSync(path);
  } catch {
    return undefined;
  }
  const b = candidate();
  if (!b) return null;
  try {
    const v = b.stat(path, false, undefined, true);
    if (!(v instanceof Float64Array) || v.length < 16) return null;
    return st.ino === v[7] &&
      st.size === v[8] &&
      st.mtimeMs === ms(v[12], v[13]) &&
      st.ctimeMs === ms(v[14], v[15]) &&
      st.mode === v[1]
      ? b
      : null;
  } catch {
    return null;
  }
}

/**
 * Stats `path` (following links, as statSync) and puts its inode, size, mtime and ctime at
 * `out[at]` … `out[at + 3]`; whether it is a regular file. Throws what statSync throws.
 */
export function statNumbers(path: string | Buffer, out: Float64Array, at: number): boolean {
  if (fast === undefined && typeof path === "string") fast = decide(path);
  if (fast && typeof path === "string") {
    let v: StatArray | undefined;
    try {
      v = fast.stat(path, false, undefined, true);
    } catch {
      // statSync below says why, in its own words
    }
    if (v) {
      // Read at once: the array is Node's one shared buffer for every stat.
      out[at] = v[7];
      out[at + 1] = v[8];
      out[at + 2] = ms(v[12], v[13]);
      out[at + 3] = ms(v[14], v[15]);
      return (v[1] & S_IFMT) === S_IFREG;
    }
  }
  const st = statSync(path);
  out[at] = st.ino;
  out[at + 1] = st.size;
  out[at + 2] = st.mtimeMs;
  out[at + 3] = st.ctimeMs;
  return st.isFile();
}

/** Whether statNumbers goes through the binding (tests; undefined until its first string path). */
export function statNumbersFast(): boolean | undefined {
  return fast === undefined ? undefined : fast !== null;
}

/** Forgets what was found of the binding (tests). */
export function resetStatNumbers(): void {
  fast = undefined;
}

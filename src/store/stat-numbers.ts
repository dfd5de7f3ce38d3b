import { statSync, type Stats } from "node:fs";

/*
 * A file's inode, size, mtime and ctime, as fs.Stats gives them, without an fs.Stats
 * object: discovery stats every session file at every launch, and a Stats object each (14
 * fields, made and collected) was ~40 % of its CPU at 10,000 files. Node's own stat binding
 * (what statSync calls) fills one array of numbers instead; it is used only on the Node
 * majors it was checked on (22, 24), with no flag under which it could warn, throw or be
 * refused (--pending-deprecation, --throw-deprecation, --trace-deprecation, --permission,
 * on the command line or in NODE_OPTIONS), when it is there as those Nodes have it, and when
 * it gives the first file exactly what statSync gives. Anything else, and every error, goes
 * through statSync itself.
 */

interface StatBinding {
  stat(path: string, bigint: false, req: undefined, throwIfNoEntry: true): Float64Array;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;

/** Node's way from the binding's seconds and nanoseconds to fs.Stats's milliseconds (msFromTimeSpec). */
const ms = (sec: number, nsec: number) => sec * 1000 + nsec / 1_000_000;

/** undefined: not tried yet; null: statSync for everything. */
let fast: StatBinding | null | undefined;

/** The Node majors the binding's arguments and array were checked on (22.19, 22.23, 24.22). */
const TESTED_MAJORS = [22, 24];

/** Flags under which process.binding may warn, throw or be refused: statSync then. */
const WARY_FLAGS = [
  "--pending-deprecation",
  "--throw-deprecation",
  "--trace-deprecation",
  "--permission",
  "--experimental-permission",
];

/** Whether the binding may be tried under this Node, its flags and NODE_OPTIONS. */
export function bindingAllowed(
  version = process.versions.node,
  flags: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? "",
  permission = "permission" in process,
): boolean {
  if (!TESTED_MAJORS.includes(Number(version.split(".")[0]))) return false;
  if (permission) return false;
  const all = [...flags, ...nodeOptions.split(/\s+/)];
  return !all.some((f) => WARY_FLAGS.some((w) => f === w || f.startsWith(w + "=")));
}

/** The binding, when it can be asked without a word on stderr. */
function candidate(): StatBinding | null {
  if (!bindingAllowed()) return null;
  const proc = process as unknown as {
    binding?: ((name: string) => unknown) & { name: string };
    noDeprecation?: boolean;
  };
  if (typeof proc.binding !== "function" || proc.binding.name !== "binding") return null;
  // Belt and braces: no deprecation warning can come out of the probe itself.
  const quiet = proc.noDeprecation;
  proc.noDeprecation = true;
  try {
    const b = proc.binding("fs") as Partial<StatBinding> | undefined;
    return typeof b?.stat === "function" ? (b as StatBinding) : null;
  } catch {
    return null; // the permission model, or a Node without it
  } finally {
    proc.noDeprecation = quiet;
  }
}

/** st's inode, size, mtime, ctime and mode. */
const numbersOf = (st: Stats) => [st.ino, st.size, st.mtimeMs, st.ctimeMs, st.mode];

/**
 * The binding when its array for `path` says what statSync says of it, else null; undefined
 * when nothing can be told from `path`: statSync cannot stat it, or it changed between the
 * two answers (a file being written: statSync's second answer differs from its first).
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
  let v;
  try {
    v = b.stat(path, false, undefined, true);
  } catch {
    return null;
  }
  if (!(v instanceof Float64Array) || v.length < 16) return null;
  const want = numbersOf(st);
  const got = [v[7], v[8], ms(v[12], v[13]), ms(v[14], v[15]), v[1]];
  if (got.every((n, i) => n === want[i])) return b;
  // The binding differs: from statSync, or from a file that moved on in between?
  let again;
  try {
    again = numbersOf(statSync(path));
  } catch {
    return undefined;
  }
  return again.every((n, i) => n === want[i]) ? null : undefined;
}

/**
 * Stats `path` (following links, as statSync) and puts its inode, size, mtime and ctime at
 * `out[at]` … `out[at + 3]`; whether it is a regular file. Throws what statSync throws.
 */
export function statNumbers(path: string | Buffer, out: Float64Array, at: number): boolean {
  // A "\0" would end the path early in the binding; statSync refuses it.
  const plain = typeof path === "string" && !path.includes("\0");
  if (fast === undefined && plain) fast = decide(path);
  if (fast && plain) {
    let v: Float64Array | undefined;
    try {
      v = fast.stat(path, false, undefined, true);
    } catch (err) {
      // An error with no errno code is not the file's (a changed signature, say): statSync
      // for the rest of the run. Either way statSync below says why, in its own words.
      if (typeof (err as NodeJS.ErrnoException | undefined)?.code !== "string") fast = null;
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

import { dirname } from "node:path";
import type { SessionSummary, UsageSlice } from "../model/types.js";
import type { UsageSource } from "./aggregate.js";

/*
 * Every session's usage by day and model, with what scopes it (its folder, its cwd), as a few
 * columns of numbers and four tables of strings: what `stats` keeps beside the index so that a
 * question not asked before (another `--since`, `--by`, folder) is added up from one small
 * value rather than from the 50,000 summaries' usage read again. Replayed in the order it was
 * made, so the sums are the same floats, bit for bit, as those of the sessions it was made of.
 */

/** The sessions as `stats` reads them: their path (its folder scopes them), cwd and usage. */
export type UsageRow = Pick<SessionSummary, "path" | "cwd" | "usage">;

const FORMAT = 1;
/** Numbers a slice carries, in this order. */
const FIGURES = ["input", "output", "cacheRead", "cacheWrite", "cost"] as const;

interface Head {
  v: number;
  folders: string[];
  cwds: string[];
  days: string[];
  models: string[];
  /** Sessions, and slices over all of them. */
  n: number;
  m: number;
}

/** A string table: each distinct string once, and its place. */
function table() {
  const at = new Map<string, number>();
  const list: string[] = [];
  return {
    list,
    of(s: string): number {
      let i = at.get(s);
      if (i === undefined) at.set(s, (i = list.push(s) - 1));
      return i;
    },
  };
}

/** The rows as bytes: a length, the head as JSON, then Int32 and Float64 columns (little-endian). */
export function encodeUsageColumns(rows: readonly UsageRow[]): Uint8Array {
  const folders = table();
  const cwds = table();
  const days = table();
  const models = table();
  let m = 0;
  for (const r of rows) {
    folders.of(dirname(r.path));
    cwds.of(r.cwd);
    for (const s of r.usage ?? []) {
      days.of(s.day);
      models.of(s.model);
      m++;
    }
  }
  const head: Head = {
    v: FORMAT,
    folders: folders.list,
    cwds: cwds.list,
    days: days.list,
    models: models.list,
    n: rows.length,
    m,
  };
  // JSON escapes a lone surrogate, so the head's bytes say every string as it was.
  const headBytes = Buffer.from(JSON.stringify(head));
  const out = Buffer.alloc(4 + headBytes.length + rows.length * 12 + m * (8 + FIGURES.length * 8));
  out.writeUInt32LE(headBytes.length, 0);
  headBytes.copy(out, 4);
  let session = 4 + headBytes.length;
  let slice = session + rows.length * 12;
  let figure = slice + m * 8;
  for (const r of rows) {
    session = out.writeInt32LE(folders.of(dirname(r.path)), session);
    session = out.writeInt32LE(cwds.of(r.cwd), session);
    // No usage at all (the browser's pending rows; never a read file's) is -1, not an empty list.
    session = out.writeInt32LE(r.usage ? r.usage.length : -1, session);
    for (const s of r.usage ?? []) {
      slice = out.writeInt32LE(days.of(s.day), slice);
      slice = out.writeInt32LE(models.of(s.model), slice);
      for (const f of FIGURES) figure = out.writeDoubleLE(s[f], figure);
    }
  }
  return out;
}

/** What decodeUsageColumns gives: the sessions to add up, and whether each is in a scope. */
export interface UsageColumns {
  sessions: number;
  /** The sessions whose file's folder and cwd `keep` says yes to (asked once per pair: cwdScopeByFolder), as aggregateUsage takes them. */
  rows(keep?: (dir: string, cwd: string) => boolean): Iterable<UsageSource>;
}

/** The rows again, or undefined when the bytes are not such columns of this format, whole. */
export function decodeUsageColumns(bytes: Uint8Array): UsageColumns | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 4) return undefined;
  const headLength = view.getUint32(0, true);
  if (headLength > bytes.length - 4) return undefined;
  let head: Head;
  try {
    head = JSON.parse(
      Buffer.from(bytes.buffer, bytes.byteOffset + 4, Math.min(headLength, bytes.length - 4)).toString(),
    );
  } catch {
    return undefined;
  }
  if (head?.v !== FORMAT || !Number.isSafeInteger(head.n) || !Number.isSafeInteger(head.m)) return undefined;
  if (head.n < 0 || head.m < 0) return undefined;
  const sessionsAt = 4 + headLength;
  const slicesAt = sessionsAt + head.n * 12;
  const figuresAt = slicesAt + head.m * 8;
  if (figuresAt + head.m * FIGURES.length * 8 !== bytes.length) return undefined;
  const strings = [head.folders, head.cwds, head.days, head.models];
  if (!strings.every((t) => Array.isArray(t) && t.every((s) => typeof s === "string"))) return undefined;
  const int = (at: number) => view.getInt32(at, true);
  // Every place in range and the slices' counts adding up, before anything is said from them.
  let slices = 0;
  for (let i = 0; i < head.n; i++) {
    const count = int(sessionsAt + i * 12 + 8);
    if (int(sessionsAt + i * 12) >= head.folders.length || int(sessionsAt + i * 12 + 4) >= head.cwds.length)
      return undefined;
    if (int(sessionsAt + i * 12) < 0 || int(sessionsAt + i * 12 + 4) < 0 || count < -1) return undefined;
    slices += Math.max(count, 0);
  }
  if (slices !== head.m) return undefined;
  for (let j = 0; j < head.m; j++) {
    const day = int(slicesAt + j * 8);
    const model = int(slicesAt + j * 8 + 4);
    if (day < 0 || day >= head.days.length || model < 0 || model >= head.models.length) return undefined;
  }
  const slice = (j: number): UsageSlice => {
    const f = (k: number) => view.getFloat64(figuresAt + (j * FIGURES.length + k) * 8, true);
    return {
      day: head.days[int(slicesAt + j * 8)],
      model: head.models[int(slicesAt + j * 8 + 4)],
      input: f(0),
      output: f(1),
      cacheRead: f(2),
      cacheWrite: f(3),
      cost: f(4),
    };
  };
  return {
    sessions: head.n,
    *rows(keep) {
      const kept = new Map<number, boolean>();
      let j = 0;
      for (let i = 0; i < head.n; i++) {
        const folder = int(sessionsAt + i * 12);
        const cwd = head.cwds[int(sessionsAt + i * 12 + 4)];
        const count = int(sessionsAt + i * 12 + 8);
        const first = j;
        j += Math.max(count, 0);
        if (keep) {
          const pair = folder * head.cwds.length + int(sessionsAt + i * 12 + 4);
          let yes = kept.get(pair);
          if (yes === undefined) kept.set(pair, (yes = keep(head.folders[folder], cwd)));
          if (!yes) continue;
        }
        const usage: UsageSlice[] | undefined = count < 0 ? undefined : [];
        for (let s = first; s < j; s++) usage!.push(slice(s));
        yield { cwd, usage };
      }
    },
  };
}

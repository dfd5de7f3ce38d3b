import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";

/*
 * A V8 code cache for the bundled program (see load-script.ts), in one file per install.
 * V8 checks a cache against the source's length only and does not notice flipped bytes,
 * so the file carries what it was made from (source checksum and length, Node version
 * and architecture) and a checksum of its own bytes; anything that differs means "no cache".
 */

const MAGIC = Buffer.from("PISCC01\n", "latin1");
const HEADER = MAGIC.length + 16;

/** What a cache belongs to. */
export interface CacheIdentity {
  sourceCrc: number;
  sourceLength: number;
  /** The Node build the cache was made by: V8's bytecode is only valid there. */
  runtime: string;
}

export function identify(source: Buffer, runtime = `${process.version} ${process.arch}`): CacheIdentity {
  return { sourceCrc: crc32(source), sourceLength: source.length, runtime };
}

/** MAGIC | source crc | source length | data crc | runtime length | runtime | data */
export function encodeCache(id: CacheIdentity, data: Buffer): Buffer {
  const runtime = Buffer.from(id.runtime, "utf8");
  const head = Buffer.alloc(HEADER);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(id.sourceCrc, MAGIC.length);
  head.writeUInt32LE(id.sourceLength, MAGIC.length + 4);
  head.writeUInt32LE(crc32(data), MAGIC.length + 8);
  head.writeUInt32LE(runtime.length, MAGIC.length + 12);
  return Buffer.concat([head, runtime, data]);
}

/** The cached data when `file` is an intact cache made for `id`, else undefined. */
export function decodeCache(id: CacheIdentity, file: Buffer): Buffer | undefined {
  if (file.length < HEADER || !file.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  if (file.readUInt32LE(MAGIC.length) !== id.sourceCrc || file.readUInt32LE(MAGIC.length + 4) !== id.sourceLength) return undefined;
  const runtimeEnd = HEADER + file.readUInt32LE(MAGIC.length + 12);
  if (runtimeEnd > file.length || file.toString("utf8", HEADER, runtimeEnd) !== id.runtime) return undefined;
  const data = file.subarray(runtimeEnd);
  if (data.length === 0 || crc32(data) !== file.readUInt32LE(MAGIC.length + 8)) return undefined;
  return data;
}

/**
 * Where the cache for the program at `appFile` lives, or undefined when caching is off
 * (PI_SESSIONS_CODE_CACHE=0) or there is no home to put it in. PI_SESSIONS_CACHE_DIR
 * overrides the folder; the default is the platform's per-user cache folder.
 */
export function codeCachePath(appFile: string, env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform): string | undefined {
  if (env.PI_SESSIONS_CODE_CACHE === "0") return undefined;
  const dir =
    env.PI_SESSIONS_CACHE_DIR ||
    (platform === "win32" && env.LOCALAPPDATA ? join(env.LOCALAPPDATA, "pi-sessions") : undefined) ||
    (platform === "darwin" && home ? join(home, "Library", "Caches", "pi-sessions") : undefined) ||
    (env.XDG_CACHE_HOME ? join(env.XDG_CACHE_HOME, "pi-sessions") : undefined) ||
    (home ? join(home, ".cache", "pi-sessions") : undefined);
  // One file per install: two installs (or versions) side by side do not take turns.
  return dir ? join(dir, `code-${crc32(appFile).toString(16).padStart(8, "0")}.v8`) : undefined;
}

/** Writes through a temporary file and a rename, so a reader never sees half a cache. */
export function writeCacheFile(path: string, bytes: Buffer): void {
  mkdirSync(join(path, ".."), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, bytes);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

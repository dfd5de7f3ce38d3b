import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { userCacheDir } from "../launcher/cache-dir.js";
import type { UsageSlice } from "../model/types.js";
import { RemoteClient, RemoteError, type ClientOptions } from "./client.js";
import { MAX_ANSWER_LINE } from "./protocol.js";
import { controlDir, hostProblem, sshProgram, type SshOptions } from "./ssh.js";

/** How this run reaches hosts: the ssh program and options, and how long it waits for them. */
export interface RemoteSettings {
  ssh: SshOptions;
  client: ClientOptions;
}

/** Seconds to wait for a host's hello (connecting, logging in, starting pi-sessions there): $PI_SESSIONS_REMOTE_TIMEOUT, else 15. */
function helloSeconds(env: NodeJS.ProcessEnv): number {
  const v = Number(env.PI_SESSIONS_REMOTE_TIMEOUT);
  return Number.isFinite(v) && v > 0 ? v : 15;
}

export function remoteSettings(env: NodeJS.ProcessEnv, sshSetting?: string): RemoteSettings {
  const hello = helloSeconds(env);
  return {
    ssh: {
      program: sshProgram(env, sshSetting),
      connectTimeout: Math.max(1, Math.min(10, Math.floor(hello * 0.6))),
      controlDir: controlDir(env),
    },
    client: { helloTimeoutMs: hello * 1000, requestTimeoutMs: Math.max(60, hello * 4) * 1000 },
  };
}

/** The hosts asked for, each checked (a name that ssh would take for an option is refused). Throws the first problem. */
export function checkedHosts(names: readonly string[]): string[] {
  for (const h of names) {
    const p = hostProblem(h);
    if (p) throw new RemoteError(h, "refused", p, 2);
  }
  return [...new Set(names)];
}

export interface HostAnswer {
  host: string;
  client?: RemoteClient;
  error?: RemoteError;
}

/** Opens every host at once; each answers or says why not, none waits on another. */
export function openHosts(
  hosts: readonly string[],
  settings: RemoteSettings,
  env: NodeJS.ProcessEnv = process.env,
): Promise<HostAnswer[]> {
  return Promise.all(
    hosts.map((host) =>
      RemoteClient.open(host, settings.ssh, settings.client, env).then(
        (client) => ({ host, client }),
        (e: unknown) => ({
          host,
          error: e instanceof RemoteError ? e : new RemoteError(host, "unreachable", `${host}: ${String(e)}`),
        }),
      ),
    ),
  );
}

function home(env: NodeJS.ProcessEnv): string {
  try {
    return env.HOME || homedir();
  } catch {
    return "";
  }
}

/** The folder where a host's last answers are kept: the user's cache folder, …/pi-sessions/remote/<host hash>/. */
export function hostCacheDir(env: NodeJS.ProcessEnv, host: string): string | undefined {
  const root = userCacheDir(env, home(env), process.platform);
  if (!root) return undefined;
  const key = createHash("sha256").update(host).digest("hex").slice(0, 16);
  return join(root, "remote", key);
}

const isRow = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** What a list is asked with: deflated, when the host's pi-sessions can (one that cannot sends it as it is). */
export const LIST_PACKED = { deflate: true } as const;

/** A deflated list's rows (sessionsDeflated: list --json's text, deflated, base64), inflated to at most an answer line's size. */
function inflatedRows(packed: string): unknown {
  try {
    const text = inflateRawSync(Buffer.from(packed, "base64"), { maxOutputLength: MAX_ANSWER_LINE }).toString("utf8");
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A list answer's rows (list --json's, sent as they are or deflated), each with its file's
 * inode and mtime there (sent beside them, in the same order); undefined when the answer is
 * no list.
 */
export function listRows(r: Record<string, unknown>): Record<string, unknown>[] | undefined {
  const sessions = typeof r.sessionsDeflated === "string" ? inflatedRows(r.sessionsDeflated) : r.sessions;
  if (!Array.isArray(sessions) || typeof r.hash !== "string") return undefined;
  const ids = Array.isArray(r.ids) ? r.ids : [];
  return sessions.filter(isRow).map((s, i) => {
    const id = ids[i] as unknown;
    return Array.isArray(id) && typeof id[0] === "number" && typeof id[1] === "number"
      ? { ...s, ino: id[0], mtimeMs: id[1] }
      : s;
  });
}

const isFigure = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

/**
 * A usage answer's slices by the session's path there; a slice that is not one (another
 * machine's text: wrong types, negative or non-finite figures) is left out. Undefined when
 * the answer is none.
 */
export function usageByPath(r: Record<string, unknown>): Map<string, UsageSlice[]> | undefined {
  if (!Array.isArray(r.usage)) return undefined;
  const out = new Map<string, UsageSlice[]>();
  for (const item of r.usage as unknown[]) {
    if (!Array.isArray(item) || typeof item[0] !== "string" || !Array.isArray(item[1])) continue;
    const slices: UsageSlice[] = [];
    for (const u of item[1] as unknown[]) {
      if (!Array.isArray(u) || typeof u[0] !== "string" || typeof u[1] !== "string") continue;
      const [, , input, output, cacheRead, cacheWrite, cost] = u as unknown[];
      if (![input, output, cacheRead, cacheWrite, cost].every(isFigure)) continue;
      slices.push({
        day: u[0],
        model: u[1],
        input: input as number,
        output: output as number,
        cacheRead: cacheRead as number,
        cacheWrite: cacheWrite as number,
        cost: cost as number,
      });
    }
    out.set(item[0], slices);
  }
  return out;
}

/** A host's last list answer, kept: when it came, its hash, and its rows (list --json's). */
export interface KeptList {
  host: string;
  at: number;
  hash: string;
  sessions: Record<string, unknown>[];
}

export function readKeptList(env: NodeJS.ProcessEnv, host: string): KeptList | undefined {
  const dir = hostCacheDir(env, host);
  if (!dir) return undefined;
  try {
    const file = join(dir, "list.json");
    const v = JSON.parse(readFileSync(file, "utf8")) as KeptList;
    if (v.host !== host || typeof v.at !== "number" || typeof v.hash !== "string" || !Array.isArray(v.sessions))
      return undefined;
    // The host said since that nothing changed (touchKeptList): the rows are as old as that.
    return { ...v, at: Math.max(v.at, statSync(file).mtimeMs) };
  } catch {
    return undefined;
  }
}

/** The host answered that its rows are as kept: they are that recent now (the file's mtime says so, nothing rewritten). */
export function touchKeptList(env: NodeJS.ProcessEnv, host: string, at = Date.now()): void {
  const dir = hostCacheDir(env, host);
  if (!dir) return;
  try {
    utimesSync(join(dir, "list.json"), at / 1000, at / 1000);
  } catch {
    // Only a cache.
  }
}

/** Keeps a host's answer (yours alone: 0700 folder, 0600 file, written whole then renamed). */
export function writeKeptList(env: NodeJS.ProcessEnv, kept: KeptList): void {
  const dir = hostCacheDir(env, kept.host);
  if (!dir) return;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = join(dir, `list.json.${process.pid}.tmp`);
    writeFileSync(tmp, JSON.stringify(kept), { mode: 0o600 });
    try {
      renameSync(tmp, join(dir, "list.json"));
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
  } catch {
    // Only a cache: the next run asks the host again.
  }
}

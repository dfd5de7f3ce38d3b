import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

/*
 * OpenSSH is the transport, and the only one: `ssh` reaches whatever the user's own
 * ~/.ssh/config, agent, ProxyJump or Tailscale reach. We never prompt: BatchMode, a
 * connect timeout, and one multiplexed connection per host (a control socket in a folder
 * of our own, closed to others) that later runs of the same minute share. Everything is
 * passed as an argument array, never a local shell string; the command the remote shell
 * runs is written with every word quoted for it.
 */

/** A host as `ssh NAME` takes it: an alias of the user's ssh config, a host name, user@host. */
const HOST_NAME = /^[A-Za-z0-9_][A-Za-z0-9._@%+-]*$/;

/** Why `name` cannot be a host (it would be read as an ssh option, or is no name), or undefined. */
export function hostProblem(name: string): string | undefined {
  if (name.startsWith("-")) return `'${name}' is not a host name: it starts with '-' (ssh would take it for an option)`;
  if (!HOST_NAME.test(name))
    return `'${name}' is not a host name (letters, digits and . _ @ % + - only, as in ~/.ssh/config)`;
  return undefined;
}

/** One word quoted for a POSIX shell (sh, bash, zsh; fish reads single quotes the same). */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command line for the remote shell: each word quoted. */
export function remoteCommandLine(words: readonly string[]): string {
  return words.map(shellQuote).join(" ");
}

/**
 * A command line split into words as a shell would split it (quotes and backslashes),
 * without running anything: `ssh -F "./my config"` is ["ssh", "-F", "./my config"].
 */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === "\\" && i + 1 < line.length && /["\\$`]/.test(line[i + 1])) word += line[++i];
      else word += c;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\" && i + 1 < line.length) {
      word = (word ?? "") + line[++i];
    } else word = (word ?? "") + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The ssh program and its own options: $PI_SESSIONS_SSH, else the "ssh" setting, else `ssh`. */
export function sshProgram(env: NodeJS.ProcessEnv, setting?: string): string[] {
  const line = env.PI_SESSIONS_SSH?.trim() ? env.PI_SESSIONS_SSH : setting?.trim() ? setting : "ssh";
  const words = splitWords(line);
  return words.length ? words : ["ssh"];
}

/**
 * The folder of our control sockets: private to this user (0700, owned, not a link), short
 * enough for a socket path (%C adds 40 characters). Undefined when none can be had: then
 * every run opens its own connection.
 */
export function controlDir(env: NodeJS.ProcessEnv): string | undefined {
  let uid: number;
  try {
    uid = userInfo().uid;
  } catch {
    return undefined;
  }
  const base = env.XDG_RUNTIME_DIR && env.XDG_RUNTIME_DIR.startsWith("/") ? env.XDG_RUNTIME_DIR : tmpdir();
  const dir = join(base, `pi-sessions-ssh-${uid}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") return undefined;
  }
  try {
    const st = lstatSync(dir);
    // Another user's folder, or one others may enter, is never used (a planted socket would be theirs).
    if (!st.isDirectory() || st.isSymbolicLink() || (uid >= 0 && st.uid !== uid) || (st.mode & 0o077) !== 0)
      return undefined;
  } catch {
    return undefined;
  }
  // Socket paths are limited to about 104 bytes: "/…/pi-sessions-ssh-1000/" + 12 + "-" + 40.
  return dir.length + 54 <= 100 ? dir : undefined;
}

/**
 * One control socket per host name as given and per connection (%C: local host, remote host,
 * port, user): two aliases of one machine with different keys or options never share one.
 */
export function controlPath(dir: string, host: string): string {
  return join(dir, `${createHash("sha256").update(host).digest("hex").slice(0, 12)}-%C`);
}

export interface SshOptions {
  /** The ssh program and its options (sshProgram). */
  program: readonly string[];
  /** Seconds ssh waits for the connection (ConnectTimeout). */
  connectTimeout: number;
  /** Our control socket folder, if any (controlDir). */
  controlDir?: string;
  /** A terminal for the remote command (resume runs pi there): -t; else -T. */
  tty?: boolean;
}

/** ssh's arguments to run `remote` (a line for the remote shell) on `host`: [program, args]. */
export function sshArgv(host: string, remote: string, o: SshOptions): [string, string[]] {
  const problem = hostProblem(host);
  if (problem) throw new Error(problem);
  const [program, ...own] = o.program;
  const args = [
    ...own,
    "-o",
    "BatchMode=yes",
    "-o",
    `ConnectTimeout=${Math.max(1, Math.round(o.connectTimeout))}`,
    ...(o.controlDir
      ? ["-o", "ControlMaster=auto", "-o", `ControlPath=${controlPath(o.controlDir, host)}`, "-o", "ControlPersist=60"]
      : []),
    o.tty ? "-t" : "-T",
    // Nothing after this is an option, whatever it looks like.
    "--",
    host,
    remote,
  ];
  return [program, args];
}

/** The remote command of the protocol: pi-sessions on the host's PATH, serving on stdio. */
export const SERVE_WORDS = ["pi-sessions", "serve", "--stdio"] as const;

/** Starts `ssh HOST pi-sessions serve --stdio`: its stdin/stdout carry the protocol, stderr is ssh's (and the remote shell's). */
export function spawnServe(host: string, o: SshOptions, env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const [program, args] = sshArgv(host, remoteCommandLine(SERVE_WORDS), o);
  const stdio: StdioOptions = ["pipe", "pipe", "pipe"];
  return spawn(program, args, { stdio, env, detached: false });
}

/**
 * What Enter runs on the host, for the remote shell, every part quoted: pi in the session's
 * folder. A folder that is gone there is left to pi, as a local resume leaves it (pi 1.6.0
 * asks: continue in the folder it started in, here the login folder, fork there, or cancel);
 * a folder that is there but cannot be entered stops with the shell's own error.
 * `test ! -e D || cd D && pi …` groups as `(…) && pi` in sh, bash, zsh and fish alike.
 */
export function remoteResumeLine(cwd: string, path: string, pi: readonly string[] = ["pi"], fork = false): string {
  const run = remoteCommandLine([...pi, fork ? "--fork" : "--session", path]);
  const dir = shellQuote(cwd);
  return cwd ? `test ! -e ${dir} || cd ${dir} && ${run}` : run;
}

/*
 * Which command lines go to another machine: small, as every command line asks it
 * (src/cli/main.ts) and only those that name a host load the rest (cli-remote.ts).
 */

/** The commands that take --host; those in SESSION_COMMANDS name sessions (delete: several). */
export const HOST_COMMANDS: ReadonlySet<string> = new Set([
  "list",
  "search",
  "stats",
  "show",
  "export",
  "rename",
  "label",
  "delete",
  "restore",
]);
const SESSION_COMMANDS: ReadonlySet<string> = new Set(["show", "export", "rename", "label", "delete", "restore"]);

/**
 * A session named on another machine, as scp names files: `HOST:PATH`, the host before the
 * first colon with no slash before it (`./a:b.jsonl` is a local file). Undefined for a local name.
 */
export function remoteSessionName(arg: string): { host: string; path: string } | undefined {
  const colon = arg.indexOf(":");
  if (colon <= 0) return undefined;
  const host = arg.slice(0, colon);
  if (host.includes("/") || host.includes("\\")) return undefined;
  return { host, path: arg.slice(colon + 1) };
}

/** Whether a command line asks for a host: --host, or (a command on sessions) a word shaped HOST:PATH. Exact parsing follows. */
export function wantsHost(command: string, args: readonly string[]): boolean {
  if (!HOST_COMMANDS.has(command)) return false;
  const end = args.indexOf("--");
  const options = end < 0 ? args : args.slice(0, end);
  if (options.some((a) => a === "--host" || a.startsWith("--host="))) return true;
  return SESSION_COMMANDS.has(command) && args.some((a) => !a.startsWith("-") && remoteSessionName(a) !== undefined);
}

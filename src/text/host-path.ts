import { displayWidth, truncatePathToWidth, truncateToWidth } from "./sanitize.js";

/*
 * Another machine's folder as the screens name it, the way scp names files: `devbox:/path`.
 * Cut to a width, its path loses its start (as a folder does, truncatePathToWidth) and the
 * host stays: which machine it is matters more than where there.
 */

/** `host:path` in at most `width` cells (text already sanitized); a local folder (no host) as any path. */
export function hostPathToWidth(host: string | undefined, path: string, width: number): string {
  if (!host) return truncatePathToWidth(path, width);
  const prefix = `${host}:`;
  const w = displayWidth(prefix);
  return w < width ? prefix + truncatePathToWidth(path, width - w) : truncateToWidth(prefix + path, width);
}

/** The host of a `host:path` label whose host is one of `hosts`, and its path; undefined for another label. */
export function splitHostPath(label: string, hosts: readonly string[]): { host: string; path: string } | undefined {
  const host = hosts.find((h) => label.startsWith(`${h}:`));
  return host === undefined ? undefined : { host, path: label.slice(host.length + 1) };
}

import type { UsageSource } from "../../usage/aggregate.js";
import type { HostView } from "../list/hosts.js";
import type { ListedSession } from "../list/sessions.js";

/*
 * What the usage view adds up: the listed sessions of every machine. A host's session
 * counts once its host has sent its usage (asked when the view opens on every host); its
 * folder is named with its host (`devbox:/folder`), as the list names it. A host whose rows
 * carry no usage is named instead, with why.
 */

export interface UsageSources {
  sessions: UsageSource[];
  /** Each host with rows not counted: "devbox counting…", "gpu unreachable", … */
  notCounted: string[];
}

export function usageSources(
  rows: readonly { session: ListedSession }[],
  hosts: readonly HostView[] | undefined,
): UsageSources {
  const sessions: UsageSource[] = [];
  const missing = new Set<string>();
  for (const { session: s } of rows) {
    if (s.host === undefined) sessions.push(s);
    else if (s.usage) sessions.push({ cwd: `${s.host}:${s.cwd}`, usage: s.usage });
    else missing.add(s.host);
  }
  const notCounted = [...missing].map((name) => {
    const h = hosts?.find((x) => x.name === name);
    if (h?.state === "unreachable") return `${name} not counted (unreachable)`;
    if (h?.noUsage) return `${name} not counted (its pi-sessions sends no usage)`;
    return `${name} counting…`;
  });
  return { sessions, notCounted };
}

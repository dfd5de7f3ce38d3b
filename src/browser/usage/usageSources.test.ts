import { describe, expect, it } from "vitest";
import type { ListedSession } from "../list/sessions.js";
import { usageSources } from "./usageSources.js";

const slice = { day: "2026-11-20", model: "m", input: 1, output: 2, cacheRead: 0, cacheWrite: 0, cost: 0.5 };
const row = (s: Partial<ListedSession>) => ({ session: { cwd: "/p", ...s } as ListedSession });

describe("what the usage view adds up", () => {
  it("every machine's listed sessions: a host's folder named with its host, a host not counted named with why", () => {
    const r = usageSources(
      [
        row({ usage: [slice] }),
        row({ host: "devbox", usage: [slice] }),
        row({ host: "gpu" }),
        row({ host: "old" }),
        row({ host: "new" }),
      ],
      [
        { name: "devbox", state: "live" },
        { name: "gpu", state: "unreachable", why: "x" },
        { name: "old", state: "live", noUsage: "old: update it" },
        { name: "new", state: "connecting" },
      ],
    );
    expect(r.sessions).toEqual([
      expect.objectContaining({ cwd: "/p", usage: [slice] }),
      { cwd: "devbox:/p", usage: [slice] },
    ]);
    expect(r.notCounted).toEqual([
      "gpu not counted (unreachable)",
      "old not counted (its pi-sessions sends no usage)",
      "new counting…",
    ]);
  });
});

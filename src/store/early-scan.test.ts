import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionProbe, SessionSummary } from "../model/types.js";
import { startEarlyScan } from "./early-scan.js";
import { scanStore } from "./scan-store.js";

const STORE = join(import.meta.dirname, "..", "..", "fixtures", "pi-generated", "agent", "sessions");

describe("startEarlyScan", () => {
  it("replays what was found before the UI subscribed, then the rest, as a plain scan would", async () => {
    const early = startEarlyScan(STORE);
    await new Promise((r) => setTimeout(r, 30)); // the UI is still loading
    const probes: SessionProbe[] = [];
    const summaries: SessionSummary[] = [];
    let total = -1;
    const result = await early.scan(STORE, { onDiscovered: (n) => (total = n), onProbes: (p) => probes.push(...p), onSummaries: (s) => summaries.push(...s) });
    const plain = await scanStore(STORE);
    expect(total).toBe(30);
    expect(new Set(probes.map((p) => p.path))).toEqual(new Set(plain.sessions.map((s) => s.path)));
    expect(new Set(summaries.map((s) => s.path))).toEqual(new Set(plain.sessions.map((s) => s.path)));
    expect(result.sessions).toHaveLength(plain.sessions.length);
  });

  it("starts afresh on a second call (a rescan)", async () => {
    const early = startEarlyScan(STORE);
    const first = await early.scan(STORE);
    let discovered = 0;
    const again = await early.scan(STORE, { onDiscovered: (n) => (discovered = n) });
    expect(discovered).toBe(30);
    expect(again.sessions).toHaveLength(first.sessions.length);
  });
});

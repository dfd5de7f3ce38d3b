import { describe, expect, it } from "vitest";
import type { SessionProbe } from "../../model/types.js";
import { initialState, update } from "./appReducer.js";
import { seedScan } from "./scanSeed.js";
import { reduce, scanned, scanProbes, scanDiscovered } from "../../../test/helpers/update.js";

const probe = (n: number, cwd = "/w"): SessionProbe => ({
  path: `/s/${n}.jsonl`,
  id: `id${n}`,
  cwd,
  created: new Date(2026, 0, n),
  firstMessage: `hello ${n}`,
  bytes: 100,
  mtimeMs: n,
});

describe("seedScan", () => {
  const base = initialState({ launchCwd: "/w" });

  it("puts what the early scan found into the first state, as the same actions would", () => {
    const events = [
      { kind: "discovered" as const, total: 3 },
      { kind: "probes" as const, items: [probe(1), probe(2)] },
      { kind: "probes" as const, items: [probe(3)] },
    ];
    const seeded = seedScan(base, events);
    const viaActions = reduce(reduce(base, scanDiscovered(3)), scanProbes([probe(1), probe(2), probe(3)]));
    expect(seeded.rows.map((r) => r.path)).toEqual(viaActions.rows.map((r) => r.path));
    expect(seeded.rows).toHaveLength(3);
    expect(seeded.scan).toEqual(viaActions.scan);
    expect(seeded.selectedPath).toBe("/s/3.jsonl"); // newest first, selected
  });

  it("leaves the state alone without events", () => {
    expect(seedScan(base, undefined)).toBe(base);
    expect(seedScan(base, [])).toBe(base);
  });

  it("a completion said again (the early scan gave it to the first frame) is the same state: no render", () => {
    const seeded = seedScan(base, [
      { kind: "discovered", total: 1 },
      { kind: "summaries", items: [] },
      { kind: "probes", items: [probe(1)] },
      { kind: "complete", result: { sessions: [], relinked: [], diagnostics: [] } },
    ]);
    expect(seeded.scan.done).toBe(true);
    const done = { kind: "complete" as const, result: { sessions: [], relinked: [], diagnostics: [] } };
    const [again, effects] = update(seeded, scanned({ kind: "summaries", items: [] }, done));
    expect(again).toBe(seeded);
    expect(effects).toEqual([]);
  });

  it("counts diagnostics without listing them", () => {
    const s = seedScan(base, [
      { kind: "diagnostic", d: { path: "/s/bad.jsonl", kind: "empty", reason: "empty file" } },
    ]);
    expect(s.scan.diagnostics).toBe(1);
  });
});

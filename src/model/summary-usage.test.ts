import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scanSessionFile } from "../store/scan-file.js";
import type { SessionSummary } from "./types.js";

const dir = mkdtempSync(join(tmpdir(), "pi-sessions-usage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const u = (input: number, cost: number) => ({
  input,
  output: 1,
  cacheRead: 2,
  cacheWrite: 3,
  totalTokens: input + 6,
  cost: { total: cost },
});
/** Local times, so the days do not depend on the machine's time zone. */
const at = (d: number, h: number) => new Date(2026, 10, d, h).getTime();
const iso = (ms: number) => new Date(ms).toISOString();

async function summarize(lines: object[]): Promise<SessionSummary> {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const r = await scanSessionFile(path);
  if (r.kind !== "session") throw new Error(r.diagnostic.reason);
  return r.summary;
}

describe("the summary's usage by day and model", () => {
  it("puts each usage on its own entry's local day and model, else the model in use", async () => {
    const s = await summarize([
      { type: "session", version: 3, id: "s1", timestamp: iso(at(1, 9)), cwd: "/p" },
      { type: "model_change", id: "m0", parentId: null, timestamp: iso(at(1, 9)), provider: "x", modelId: "alpha" },
      {
        type: "message",
        id: "u1",
        parentId: "m0",
        timestamp: iso(at(1, 9)),
        message: { role: "user", content: "hi", timestamp: at(1, 9) },
      },
      // the reply's own timestamp (day 2) wins over the entry's (day 1)
      {
        type: "message",
        id: "a1",
        parentId: "u1",
        timestamp: iso(at(1, 10)),
        message: { role: "assistant", content: [], model: "beta", usage: u(100, 1), timestamp: at(2, 10) },
      },
      // a tool result's usage: no model of its own, so the one in use (beta, the last reply's)
      {
        type: "message",
        id: "t1",
        parentId: "a1",
        timestamp: iso(at(2, 11)),
        message: {
          role: "toolResult",
          toolCallId: "c",
          toolName: "bash",
          content: [],
          usage: u(10, 0.1),
          timestamp: at(2, 11),
        },
      },
      { type: "model_change", id: "m1", parentId: "t1", timestamp: iso(at(3, 9)), provider: "x", modelId: "gamma" },
      {
        type: "compaction",
        id: "c1",
        parentId: "m1",
        timestamp: iso(at(3, 10)),
        summary: "s",
        firstKeptEntryId: "u1",
        tokensBefore: 5,
        usage: u(20, 0.2),
      },
      // a usage entry names its model
      {
        type: "usage",
        id: "x1",
        parentId: "c1",
        timestamp: iso(at(3, 11)),
        kind: "cache_warm",
        model: "delta",
        usage: u(30, 0.3),
      },
      {
        type: "branch_summary",
        id: "b1",
        parentId: "u1",
        timestamp: "not a date",
        fromId: "x1",
        summary: "b",
        usage: u(40, 0.4),
      },
    ]);
    const slices = Object.fromEntries(s.usage!.map((x) => [`${x.day} ${x.model}`, [x.input, x.cost]]));
    expect(slices).toEqual({
      "2026-11-02 beta": [110, 1.1],
      "2026-11-03 gamma": [20, 0.2],
      "2026-11-03 delta": [30, 0.3],
      " gamma": [40, 0.4],
    });
    // the slices add up to the /session totals
    const sum = (k: "input" | "output" | "cacheRead" | "cacheWrite" | "cost") => s.usage!.reduce((a, x) => a + x[k], 0);
    expect(sum("input")).toBe(s.tokens.input);
    expect(sum("output") + sum("cacheRead") + sum("cacheWrite") + sum("input")).toBe(s.tokens.total);
    expect(sum("cost")).toBeCloseTo(s.cost, 12);
  });

  it("counts usage before any model as of an unknown model, and none when nothing was used", async () => {
    const s = await summarize([
      { type: "session", version: 3, id: "s2", timestamp: iso(at(5, 9)), cwd: "/p" },
      { type: "usage", id: "x1", parentId: null, timestamp: iso(at(5, 9)), kind: "k", usage: u(5, 0) },
    ]);
    expect(s.usage).toEqual([
      { day: "2026-11-05", model: "", input: 5, output: 1, cacheRead: 2, cacheWrite: 3, cost: 0 },
    ]);
    const none = await summarize([
      { type: "session", version: 3, id: "s3", timestamp: iso(at(5, 9)), cwd: "/p" },
      { type: "message", id: "u1", parentId: null, timestamp: iso(at(5, 9)), message: { role: "user", content: "hi" } },
    ]);
    expect(none.usage).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import type { SessionSummary } from "../model/types.js";
import { NO_LINEAGE } from "../store/lineage.js";
import { shareFields } from "./shared-fields.js";

/** Only the fields shareFields reads; the rest does not matter to it. */
function summary(fields: Partial<SessionSummary>): SessionSummary {
  return { cwd: "/p", models: [], warnings: [], lineage: { status: "none" }, ...fields } as SessionSummary;
}

describe("shareFields", () => {
  it("makes a lineage of none the frozen NO_LINEAGE, not one summary's own object", () => {
    const a = summary({});
    const b = summary({});
    shareFields([a, b]);
    expect(a.lineage).toBe(NO_LINEAGE);
    expect(b.lineage).toBe(NO_LINEAGE);
    expect(Object.isFrozen(a.lineage)).toBe(true);
  });

  it("shares equal lists only: a one-item list of a number is not the list of that number's text", () => {
    // The index's rows are parsed from JSON, so a damaged one can hold any value in a list.
    const n = summary({ models: [1] as unknown as string[] });
    const s = summary({ models: ["1"] });
    const s2 = summary({ models: ["1"] });
    shareFields([n, s, s2]);
    expect(n.models).toEqual([1]);
    expect(s.models).toEqual(["1"]);
    expect(s2.models).toBe(s.models);
  });

  it("shares equal lists, and leaves every folder and usage slice equal to what it was", () => {
    const a = summary({ cwd: "/x".repeat(2), labels: ["l"], usage: [{ day: "2026-01-01", model: "m" }] as never });
    const b = summary({ cwd: "/x/x", labels: ["l"], usage: [{ day: "2026-01-01", model: "m" }] as never });
    shareFields([a, b, null, undefined]);
    expect(b.cwd).toBe("/x/x");
    expect(b.labels).toBe(a.labels);
    expect(b.usage).toEqual(a.usage);
  });
});

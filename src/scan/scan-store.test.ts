import { describe, expect, it } from "vitest";
import { DAMAGED_STORE, PI_STORE } from "../../test/helpers/tmp-store.js";
import type { SessionSummary } from "../model/types.js";
import { scanStore } from "./scan-store.js";

/** What lineage's resolution needs of a summary, and no more. */
const lineageOnly = (s: SessionSummary): SessionSummary =>
  ({ path: s.path, parentSessionPath: s.parentSessionPath, lineage: s.lineage }) as unknown as SessionSummary;

describe("a scan that holds a few fields of each summary read (hold)", () => {
  it("gives the rows hold made, each with the lineage the whole summaries resolve to", async () => {
    for (const store of [PI_STORE, DAMAGED_STORE]) {
      const whole = await scanStore(store, {}, { probe: false });
      const rows = await scanStore(store, {}, { probe: false, hold: lineageOnly });
      // Forks are among them: their parents found by lineage's resolution on the rows.
      if (store === PI_STORE) expect(whole.sessions.some((s) => s.lineage.status === "resolved")).toBe(true);
      const byPath = (xs: typeof whole.sessions) =>
        Object.fromEntries(xs.map((s) => [s.path, { parent: s.parentSessionPath, lineage: s.lineage }]));
      expect(byPath(rows.sessions)).toEqual(byPath(whole.sessions));
      for (const r of rows.sessions) expect(Object.keys(r).sort()).toEqual(["lineage", "parentSessionPath", "path"]);
      expect(rows.diagnostics).toEqual(whole.diagnostics);
    }
  });
});

describe("a scan whose caller shows no lineage (lineage: false)", () => {
  it("resolves none: each row keeps the lineage it was read with, the rest the same", async () => {
    const whole = await scanStore(PI_STORE, {}, { probe: false });
    const rows = await scanStore(PI_STORE, {}, { probe: false, hold: (s) => ({ ...s }), lineage: false });
    expect(whole.sessions.some((s) => s.lineage.status === "resolved")).toBe(true);
    // As read: a fork's parent "missing" until resolution finds it.
    expect(rows.sessions.every((s) => s.lineage.status !== "resolved")).toBe(true);
    expect(rows.relinked).toEqual([]);
    const strip = (xs: typeof whole.sessions) => Object.fromEntries(xs.map(({ lineage: _, ...s }) => [s.path, s]));
    expect(strip(rows.sessions)).toEqual(strip(whole.sessions));
    expect(rows.diagnostics).toEqual(whole.diagnostics);
  });
});

// label:TEXT on real pi-written sessions: the scan keeps the labels' texts.
import { describe, expect, it } from "vitest";
import { matchSession, parseQuery } from "../src/search/query.js";
import { scanStore } from "../src/scan/scan-store.js";
import { PI_STORE } from "./helpers/tmp-store.js";

describe("label: over the pi-generated store", () => {
  it("filters by the text of the labels, not only by having some", async () => {
    const { sessions } = await scanStore(PI_STORE, {}, { probe: false });
    const labelled = sessions.filter((s) => s.labelCount > 0);
    expect(labelled.length).toBeGreaterThan(0);
    for (const s of labelled) expect(s.labels).toHaveLength(s.labelCount);
    const some = labelled[0].labels![0];
    const hits = (q: string) => sessions.filter((s) => matchSession(parseQuery(q), s) !== null).length;
    expect(hits("label:")).toBe(labelled.length);
    expect(hits("label:zzzqqq")).toBe(0);
    expect(hits(`label:${some.split(/\s/)[0]}`)).toBeGreaterThan(0);
    expect(hits(`label:${some.split(/\s/)[0]}`)).toBe(
      labelled.filter((s) => s.labels!.some((l) => l.toLowerCase().includes(some.split(/\s/)[0].toLowerCase()))).length,
    );
  });
});

import { describe, expect, it } from "vitest";
import { makeSummary } from "../../../test/helpers/sessions.js";
import { listPieces, summaryToJson } from "../../model/summary-json.js";
import type { SessionSummary } from "../../model/types.js";
import { safeJson, writeSummariesJson } from "./json.js";

/** What writeSummariesJson writes, joined, and in how many pieces. */
function written(
  sessions: SessionSummary[],
  kept: Parameters<typeof writeSummariesJson>[1] = () => undefined,
): { text: string; pieces: number } {
  const parts: string[] = [];
  writeSummariesJson(sessions, kept, (t) => parts.push(t));
  return { text: parts.join(""), pieces: parts.length };
}

const asBytes = (p: readonly [string, string]) => [Buffer.from(p[0]), Buffer.from(p[1])] as const;

describe("writeSummariesJson", () => {
  it("writes exactly what safeJson writes for the whole array", () => {
    const samples: SessionSummary[][] = [
      [],
      [makeSummary()],
      [makeSummary({ name: "line\nbreak", firstMessage: "csi \u009b31m · tab \t · 🚀" }), makeSummary()],
    ];
    for (const s of samples) expect(written(s).text).toBe(`${safeJson(s.map(summaryToJson))}\n`);
  });

  it("writes the index's kept elements with the lineage put in: the same text", () => {
    const s = [makeSummary({ firstMessage: "kept 🚀" }), makeSummary({ name: "made" })];
    const kept = (x: SessionSummary) => (x === s[0] ? asBytes(listPieces(x)!) : undefined);
    expect(written(s, kept).text).toBe(`${safeJson(s.map(summaryToJson))}\n`);
  });

  it("hands the text over in pieces of about a megabyte, not as one string", () => {
    const many = Array.from({ length: 4000 }, (_, i) => makeSummary({ firstMessage: `${i} ${"x".repeat(600)}` }));
    const { text, pieces } = written(many);
    expect(text).toBe(`${safeJson(many.map(summaryToJson))}\n`);
    expect(pieces).toBeGreaterThan(1);
  });
});

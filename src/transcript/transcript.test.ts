import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Block } from "./blocks.js";
import { matchFrom, matchPosition, searchTranscript } from "./search.js";
import { Transcript } from "./transcript.js";

const user = (i: number, text = `question ${i}`): Block => ({ kind: "user", entryId: `u${i}`, text, images: 0 });
const answer = (i: number, text = `answer ${i}`): Block => ({
  kind: "assistant",
  entryId: `a${i}`,
  parts: [{ type: "text", text }],
});
const tool = (i: number, output: string): Block => ({
  kind: "tool",
  entryId: `a${i}`,
  title: `bash: step ${i}`,
  output,
  isError: false,
  images: 0,
});

/** user, assistant, tool × n: 3 blocks per turn, each 3 / 3 / 2 lines (blank line included). */
function conversation(turns: number): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < turns; i++) out.push(user(i), answer(i), tool(i, `out ${i}\n`));
  return out;
}

describe("Transcript", () => {
  it("opens at the end laying out only the last screenful of a 50,000-block session", () => {
    const t = new Transcript(conversation(17_000), { width: 80 });
    expect(t.blockCount).toBe(51_000);
    const top = t.tail(24);
    const screen = t.window(top, 24);
    expect(screen).toHaveLength(24);
    expect(screen.at(-2)!.text).toBe("  ▸ bash: step 16999 · 1 line");
    expect(screen.at(-1)!.text).toBe("");
    // 24 lines = a few turns: nothing else was touched.
    expect(t.laidOutCount).toBeLessThan(15);
  });

  it("move() crosses blocks both ways and clamps at the ends", () => {
    const t = new Transcript(conversation(3), { width: 80 });
    // Lines per turn: 3 + 3 + 2 = 8; 24 in all.
    expect(t.end).toEqual({ block: 8, line: 1 });
    expect(t.move(t.start, 3)).toEqual({ block: 1, line: 0 });
    expect(t.move(t.start, 8)).toEqual({ block: 3, line: 0 });
    expect(t.move({ block: 3, line: 0 }, -1)).toEqual({ block: 2, line: 1 });
    expect(t.move(t.start, 1000)).toEqual(t.end);
    expect(t.move(t.end, -1000)).toEqual(t.start);
    expect(t.window(t.move(t.start, 22), 10).map((l) => l.text)).toEqual(["  ▸ bash: step 2 · 1 line", ""]);
    expect(t.tail(100)).toEqual(t.start);
  });

  it("an empty transcript has one position and no lines", () => {
    const t = new Transcript([], { width: 80 });
    expect(t.tail(10)).toEqual({ block: 0, line: 0 });
    expect(t.window(t.start, 10)).toEqual([]);
    expect(t.move(t.start, 5)).toEqual({ block: 0, line: 0 });
  });

  it("t cycles one tool block collapsed → truncated → full → collapsed, and relays out only it", () => {
    const t = new Transcript(conversation(2), { width: 80 });
    expect(t.lines(2).map((l) => l.text)).toEqual(["  ▸ bash: step 0 · 1 line", ""]);
    const before = t.lines(5);
    expect(t.cycleTool(2)).toBe("truncated");
    expect(t.lines(2).map((l) => l.text)).toEqual(["  ▾ bash: step 0", "    out 0", ""]);
    expect(t.cycleTool(2)).toBe("full");
    expect(t.cycleTool(2)).toBe("collapsed");
    expect(t.lines(5)).toBe(before);
    expect(t.cycleTool(0)).toBeUndefined();
  });

  it("{ and } jump between message blocks, skipping tool calls", () => {
    const t = new Transcript(conversation(2), { width: 80 });
    expect(t.jumpMessage(t.start, 1)).toEqual({ block: 1, line: 0 });
    expect(t.jumpMessage({ block: 1, line: 0 }, 1)).toEqual({ block: 3, line: 0 });
    expect(t.jumpMessage({ block: 2, line: 1 }, -1)).toEqual({ block: 1, line: 0 });
    // Inside a message: { goes to its own start first.
    expect(t.jumpMessage({ block: 4, line: 1 }, -1)).toEqual({ block: 4, line: 0 });
    expect(t.jumpMessage({ block: 4, line: 0 }, 1)).toEqual({ block: 4, line: 0 });
    expect(t.jumpMessage(t.start, -1)).toEqual(t.start);
  });
});

describe("searchTranscript", () => {
  it("finds every case-insensitive hit in reading order, with its place on the display line", () => {
    const t = new Transcript([user(0, "Find the NEEDLE here"), answer(0, "needle and needle")], { width: 80 });
    const ms = searchTranscript(t, "needle");
    expect(ms).toEqual([
      { block: 0, parts: [{ line: 1, start: 11, end: 17 }] },
      { block: 1, parts: [{ line: 1, start: 2, end: 8 }] },
      { block: 1, parts: [{ line: 1, start: 13, end: 19 }] },
    ]);
    const line = t.lines(0)[1].text;
    expect(line.slice(11, 17)).toBe("NEEDLE");
  });

  it("a hit across a wrap is found, in two parts", () => {
    const t = new Transcript([user(0, "aaaa bbbb cccc")], { width: 11 });
    // "  aaaa bbbb" / "  cccc"
    expect(t.lines(0).map((l) => l.text)).toEqual(["You", "  aaaa bbbb", "  cccc", ""]);
    expect(searchTranscript(t, "bbbb cc")).toEqual([
      {
        block: 0,
        parts: [
          { line: 1, start: 7, end: 11 },
          { line: 2, start: 2, end: 4 },
        ],
      },
    ]);
  });

  it("searches what is shown: not collapsed output or hidden thinking, but the tool's title", () => {
    const blocks: Block[] = [
      {
        kind: "assistant",
        entryId: "a",
        parts: [
          { type: "thinking", text: "secret plan" },
          { type: "text", text: "ok" },
        ],
      },
      tool(1, "secret output"),
    ];
    expect(searchTranscript(new Transcript(blocks, { width: 80 }), "secret")).toEqual([]);
    expect(searchTranscript(new Transcript(blocks, { width: 80 }), "step 1")).toHaveLength(1);
    expect(
      searchTranscript(new Transcript(blocks, { width: 80, thinking: true, tools: "truncated" }), "secret"),
    ).toHaveLength(2);
  });

  it("lays out only blocks with a hit; regex characters are literal", () => {
    const t = new Transcript(conversation(1000), { width: 80 });
    const ms = searchTranscript(t, "answer 99.");
    expect(ms).toEqual([]);
    expect(searchTranscript(t, "question 999")).toHaveLength(1);
    expect(t.laidOutCount).toBe(1);
  });

  it("matchFrom: the first hit at or after a position, wrapping around", () => {
    const t = new Transcript(conversation(10), { width: 80 });
    const ms = searchTranscript(t, "answer");
    expect(ms).toHaveLength(10);
    expect(matchFrom(ms, { block: 4, line: 0 })).toBe(1);
    expect(matchPosition(ms[1])).toEqual({ block: 4, line: 1 });
    expect(matchFrom(ms, { block: 29, line: 0 })).toBe(0);
    expect(matchFrom([], t.start)).toBe(-1);
  });
});

describe("searchTranscript (property)", () => {
  it("each hit's parts spell the query on screen (spaces at a wrap aside), whatever the width", () => {
    const word = fc.constantFrom("alpha", "Beta", "研究", "🚀", "x", "needle", "NEEDLE", "naïve");
    const text = fc.array(word, { minLength: 1, maxLength: 40 }).map((ws) => ws.join(" "));
    fc.assert(
      fc.property(
        text,
        fc.integer({ min: 6, max: 50 }),
        fc.integer({ min: 0, max: 39 }),
        fc.integer({ min: 1, max: 4 }),
        (t, width, at, len) => {
          const words = t.split(" ");
          const query = words.slice(at % words.length, (at % words.length) + len).join(" ");
          const tr = new Transcript([user(0, t)], { width });
          const ms = searchTranscript(tr, query);
          expect(ms.length).toBeGreaterThan(0);
          for (const m of ms) {
            const shown = m.parts.map((p) => tr.lines(m.block)[p.line].text.slice(p.start, p.end)).join("");
            expect(shown.toLowerCase().replace(/ /g, "")).toBe(query.toLowerCase().replace(/ /g, ""));
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("searchTranscript on a big expanded output", () => {
  it("finds a hit on each of 50,000 lines, each on its own display line, in order", () => {
    const t = new Transcript([tool(0, "hit\n".repeat(50_000))], { width: 80, tools: "full" });
    const ms = searchTranscript(t, "hit");
    expect(ms).toHaveLength(50_000);
    expect(ms[0]).toEqual({ block: 0, parts: [{ line: 1, start: 4, end: 7 }] });
    expect(ms[49_999]).toEqual({ block: 0, parts: [{ line: 50_000, start: 4, end: 7 }] });
  });
  it("and in one 200,000-character line wrapped to thousands of display lines", () => {
    const t = new Transcript([tool(0, "abcdefgh".repeat(25_000))], { width: 44, tools: "full" });
    const ms = searchTranscript(t, "habc");
    expect(ms).toHaveLength(24_999);
    // 40 columns after the 4-column indent: the hit just before each of the 4,999 wraps runs across it.
    expect(ms.filter((m) => m.parts.length === 2)).toHaveLength(4_999);
  });
});

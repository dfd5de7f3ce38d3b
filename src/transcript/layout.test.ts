import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displayWidth } from "../text/width.js";
import type { Block } from "./blocks.js";
import { blockSource, layoutBlock, type LayoutOptions } from "./layout.js";
import { markdownLines } from "./markdown-light.js";

const texts = (b: Block, opts: Partial<LayoutOptions> = {}) =>
  layoutBlock(b, 0, { width: 40, ...opts }).map((l) => l.text);
const tool = (output: string | undefined, over: Partial<Extract<Block, { kind: "tool" }>> = {}): Block => ({
  kind: "tool",
  entryId: "a",
  title: "bash: npm test",
  output,
  isError: false,
  images: 0,
  ...over,
});

describe("markdownLines", () => {
  it("sets headings, lists, quotes, rules and fenced code apart; inline marks stay", () => {
    const src = markdownLines(
      "# Title #\n\n\n- one **bold**\n  2. two\n> quoted\n---\n```ts\nconst x = 1;\n\n```\nafter",
      "  ",
    );
    expect(src.map((l) => [l.style, l.first, l.text])).toEqual([
      ["heading", "  ", "Title"],
      ["blank", "", ""],
      ["text", "  • ", "one **bold**"],
      ["text", "    2. ", "two"],
      ["quote", "  │ ", "quoted"],
      ["rule", "  ", ""],
      ["code", "  │ ", "const x = 1;"],
      ["code", "  │ ", ""],
      ["text", "  ", "after"],
    ]);
  });
  it("an unclosed fence runs to the end; a fence closes only with the same marker", () => {
    const src = markdownLines("~~~\na\n```\nb", "");
    expect(src.map((l) => l.style)).toEqual(["code", "code", "code"]);
  });
});

describe("layoutBlock", () => {
  it("wraps text to the width under its header, with a hanging indent for list items; a blank line ends the block", () => {
    const lines = texts(
      { kind: "user", entryId: "u", text: "- a list item that is long enough to wrap around", images: 0 },
      { width: 20 },
    );
    expect(lines).toEqual(["You", "  • a list item that", "    is long enough", "    to wrap around", ""]);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(20);
  });

  it("sanitizes every text: escapes and controls never reach the screen", () => {
    const evil = "\u001b]0;title\u0007red \u001b[31mX\u009b2J\u202e";
    const blocks: Block[] = [
      { kind: "user", entryId: "u", text: evil, images: 0 },
      { kind: "assistant", entryId: "a", parts: [{ type: "text", text: evil }], model: evil },
      tool(evil, { title: evil }),
      { kind: "custom", entryId: "c", customType: evil, text: evil },
    ];
    for (const b of blocks) {
      for (const mode of ["collapsed", "truncated", "full"] as const) {
        for (const l of texts(b, { tools: mode }))
          expect(l).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      }
    }
  });

  it("thinking: one line while hidden (a run of thinking blocks counts once), the text when shown", () => {
    const b: Block = {
      kind: "assistant",
      entryId: "a",
      parts: [
        { type: "thinking", text: "first thought" },
        { type: "thinking", text: "second thought" },
        { type: "text", text: "Answer." },
      ],
    };
    expect(texts(b)).toEqual(["Assistant", "  Thinking…", "", "  Answer.", ""]);
    expect(texts(b, { thinking: true })).toEqual([
      "Assistant",
      "  first thought",
      "",
      "  second thought",
      "",
      "  Answer.",
      "",
    ]);
  });

  it("an assistant error or abort is shown; an empty turn says so", () => {
    expect(texts({ kind: "assistant", entryId: "a", parts: [], error: "overloaded" })).toEqual([
      "Assistant",
      "  Error: overloaded",
      "",
    ]);
    expect(texts({ kind: "assistant", entryId: "a", parts: [], error: "aborted" })).toContain("  (aborted)");
    expect(texts({ kind: "assistant", entryId: "a", parts: [] })).toContain("  (no content)");
  });

  it("a tool call collapsed is one line, cut to the width, with the output's size", () => {
    expect(texts(tool("a\nb\nc\n"))).toEqual(["  ▸ bash: npm test · 3 lines", ""]);
    expect(texts(tool(undefined))).toEqual(["  ▸ bash: npm test · no result", ""]);
    expect(texts(tool("", { isError: true }))).toEqual(["  ▸ bash: npm test · no output · error", ""]);
    const long = texts(tool("x", { title: `bash: ${"word ".repeat(30)}` }), { width: 30 });
    expect(long).toHaveLength(2);
    expect(long[0].endsWith("…")).toBe(true);
    expect(displayWidth(long[0])).toBe(30);
  });

  it("truncated shows the first lines, each cut to one line, and what is left; full shows all, wrapped", () => {
    const output = Array.from({ length: 25 }, (_, i) => `line ${i + 1} ${"y".repeat(50)}`).join("\n") + "\n";
    const t = texts(tool(output), { tools: "truncated", width: 40 });
    expect(t[0]).toBe("  ▾ bash: npm test");
    expect(t.slice(1, 11).every((l) => l.startsWith("    line ") && l.endsWith("…") && displayWidth(l) === 40)).toBe(
      true,
    );
    expect(t[11]).toBe("    … 15 more lines (t: full output)");
    expect(t).toHaveLength(13);
    expect(texts(tool(output), { tools: "truncated", truncatedLines: 3 })[4]).toBe(
      "    … 22 more lines (t: full output)",
    );
    const f = texts(tool(output), { tools: "full", width: 40 });
    expect(f.filter((l) => l.startsWith("    line "))).toHaveLength(25);
    expect(f.length).toBe(1 + 25 * 2 + 1);
    for (const l of f) expect(displayWidth(l)).toBeLessThanOrEqual(40);
  });

  it("a 20 MB output without newlines: truncated reads only its head; collapsed and truncated stay a few lines", () => {
    const big = "z".repeat(20 << 20);
    expect(texts(tool(big))).toEqual(["  ▸ bash: npm test · 20 MB", ""]);
    const t = layoutBlock(tool(big), 0, { width: 80, tools: "truncated" });
    expect(t.map((l) => l.text)).toEqual([
      "  ▾ bash: npm test",
      `    ${"z".repeat(75)}…`,
      "    … 20 MB in all (t: full output)",
      "",
    ]);
  });

  it("rules fill the width; wide text wraps by display width", () => {
    const lines = texts(
      { kind: "assistant", entryId: "a", parts: [{ type: "text", text: "---\n研究研究研究研究研究研究" }] },
      { width: 12 },
    );
    expect(lines[1]).toBe(`  ${"─".repeat(10)}`);
    expect(lines.slice(2)).toEqual(["  研究研究研", "  究研究研究", "  研究", ""]);
  });

  it("display lines record which part of which source line they show", () => {
    const lines = layoutBlock({ kind: "user", entryId: "u", text: "alpha beta gamma delta", images: 0 }, 7, {
      width: 13,
    });
    expect(lines.map((l) => [l.block, l.src, l.start, l.end, l.prefix, l.text])).toEqual([
      [7, 0, 0, 3, 0, "You"],
      [7, 1, 0, 10, 2, "  alpha beta"],
      [7, 1, 11, 22, 2, "  gamma delta"],
      [7, -1, 0, 0, 0, ""],
    ]);
  });
});

describe("layout invariants", () => {
  const chars = [
    "a",
    "b",
    " ",
    " ",
    "\n",
    "\t",
    "研",
    "🚀",
    "e\u0301",
    "👩‍💻",
    "\u001b[31m",
    "\u009b",
    "\u0007",
    "#",
    "- ",
    "1. ",
    "> ",
    "```",
    "---",
    "`",
    "ﾃ",
    "\u202e",
  ];
  const text = fc.array(fc.constantFrom(...chars), { maxLength: 120 }).map((a) => a.join(""));
  const block = fc.oneof(
    text.map((t): Block => ({ kind: "user", entryId: "u", text: t, images: 0 })),
    fc.tuple(text, text).map(([t, th]): Block => ({
      kind: "assistant",
      entryId: "a",
      parts: [
        { type: "thinking", text: th },
        { type: "text", text: t },
      ],
      model: "m",
    })),
    fc.tuple(text, text, fc.boolean()).map(([title, out, isError]): Block => tool(out, { title, isError })),
    text.map((t): Block => ({ kind: "compaction", entryId: "c", summary: t, tokensBefore: 1 })),
  );
  it("every line fits the width, holds no control character, and its source part is what it shows", () => {
    fc.assert(
      fc.property(
        block,
        fc.integer({ min: 2, max: 60 }),
        fc.constantFrom(...(["collapsed", "truncated", "full"] as const)),
        fc.boolean(),
        (b, width, tools, thinking) => {
          const opts = { width, tools, thinking, truncatedLines: 3 };
          const source = blockSource(b, 0, opts);
          for (const l of layoutBlock(b, 0, opts)) {
            expect(displayWidth(l.text), JSON.stringify(l.text)).toBeLessThanOrEqual(width);

            expect(l.text).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
            if (l.src >= 0 && l.style !== "rule" && l.style !== "blank")
              expect(l.text.slice(l.prefix, l.prefix + l.end - l.start)).toBe(source[l.src].text.slice(l.start, l.end));
          }
        },
      ),
      { numRuns: 1500 },
    );
  });
});

describe("big messages", () => {
  it("a 300,000-line answer lays out (no argument-list overflow)", () => {
    const text = "line\n".repeat(300_000);
    const lines = layoutBlock({ kind: "assistant", entryId: "a", parts: [{ type: "text", text }] }, 0, { width: 80 });
    expect(lines).toHaveLength(1 + 300_000 + 1);
  });
});

describe("context edits", () => {
  it("a replaced block says so in its header; an omitted one is its header alone (its output never read)", () => {
    const replaced = texts({ kind: "user", entryId: "u", text: "new text", images: 0, edit: "replace" });
    expect(replaced[0]).toBe("You · ✎ edited");
    expect(replaced[1]).toBe("  new text");
    let read = 0;
    const omitted = layoutBlock(
      {
        kind: "tool",
        entryId: "a",
        title: "cat big",
        isError: false,
        images: 0,
        bytes: 5000,
        load: () => (read++, { output: "x", isError: false, images: 0 }),
        edit: "omit",
      },
      0,
      { width: 60, tools: "full" },
    ).map((l) => l.text);
    expect(omitted).toEqual(["  ▸ cat big · 4.9 KB · ⊘ omitted from the model's context", ""]);
    expect(read).toBe(0);
  });
});

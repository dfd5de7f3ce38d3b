import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Block } from "../transcript/blocks.js";
import type { ExportDocument } from "./document.js";
import { escapeHtml, toHtml } from "./html.js";
import { jsonLine } from "./jsonl.js";
import { codeSpan, fenced, toMarkdown } from "./markdown.js";

const EVIL = "<script>alert(1)</script> & \u001b[31mred\u001b[0m \u009b2J \u202egnp.exe";

const blocks: Block[] = [
  { kind: "user", entryId: "u1", text: `Fix it ${EVIL}`, images: 1 },
  {
    kind: "assistant",
    entryId: "a1",
    model: "claude-sonnet-4-5",
    parts: [
      { type: "thinking", text: "think\nharder" },
      { type: "text", text: "# Plan\n\n- read\n- fix\n\n```ts\nconst a = 1 < 2;\n```" },
    ],
  },
  { kind: "tool", entryId: "a1", title: "bash: echo `x`", output: "```\nfenced\n````\n", isError: true, images: 0 },
  { kind: "tool", entryId: "a1", title: "read: a.ts", isError: false, images: 0 },
  { kind: "compaction", entryId: "c", summary: "Summary.", tokensBefore: 61234 },
  { kind: "branch_summary", entryId: "b", summary: "Tried X." },
  { kind: "custom", entryId: "x", customType: "todo", text: "3 open" },
  { kind: "assistant", entryId: "a2", parts: [], error: "overloaded" },
];

const doc = (over: Partial<ExportDocument> = {}): ExportDocument => ({
  title: `Title ${EVIL}`,
  sessionId: "0196e0a2-8c1d-7b3e-9f40-5a7c2d1e8b90",
  cwd: "/srv/app",
  created: "2026-05-02T09:14:03.221Z",
  path: "/store/s.jsonl",
  scope: "active branch",
  sections: [{ blocks }],
  ...over,
});

const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe("Markdown export", () => {
  const md = toMarkdown(doc());
  it("writes the facts, then each block under its heading", () => {
    expect(md.startsWith("# Title <script>")).toBe(true);
    expect(md).toContain("- Session: `0196e0a2-8c1d-7b3e-9f40-5a7c2d1e8b90`");
    const headings = md.split("\n").filter((l) => l.startsWith("### ") || l.startsWith("**Tool**"));
    expect(headings).toEqual([
      "### User",
      "### Assistant (claude-sonnet-4-5)",
      "**Tool** `` bash: echo `x` `` (error)",
      "**Tool** `read: a.ts`",
      "### Compaction (from 61,234 tokens)",
      "### Branch summary",
      "### todo",
      "### Assistant",
    ]);
    expect(md).toContain("> **Thinking**\n>\n> think\n> harder");
    expect(md).toContain("# Plan\n\n- read\n- fix\n\n```ts\nconst a = 1 < 2;\n```");
    expect(md).toContain("*(no result)*");
    expect(md).toContain("*Error: overloaded*");
    expect(md).toContain("*[1 image]*");
  });
  it("a tool output's fence is longer than any fence inside it", () => {
    expect(md).toContain("`````text\n```\nfenced\n````\n`````");
  });
  it("no control characters or escape sequences (it may be printed to a terminal)", () => {
    expect(md).not.toMatch(CONTROLS);
    expect(md).toContain("Fix it <script>alert(1)</script> & red  gnp.exe");
  });
  it("marks each branch when there are several", () => {
    const out = toMarkdown(
      doc({
        scope: "all 2 branches",
        sections: [
          { heading: "Branch 1 of 2", note: "the active branch", blocks: [] },
          { heading: "Branch 2 of 2", note: "branches off after entry u1", blocks: [blocks[0]] },
        ],
      }),
    );
    expect(out).toContain("## Branch 1 of 2\n\n*the active branch*\n\n*(no messages)*");
    expect(out).toContain("## Branch 2 of 2\n\n*branches off after entry u1*\n\n### User");
  });
  it("codeSpan and fenced hold any backticks", () => {
    expect(codeSpan("a")).toBe("`a`");
    expect(codeSpan("`a``")).toBe("``` `a`` ```");
    expect(fenced("x")).toBe("```\nx\n```");
    expect(fenced("````")).toBe("`````\n````\n`````");
  });
});

/** The elements left open (or a mismatch) when reading `page`'s tags in order; [] when balanced. */
function balanced(page: string): string[] {
  const stack: string[] = [];
  const VOID = new Set(["meta", "hr", "br", "!doctype"]);
  for (const [, close, name] of page.matchAll(/<(\/?)([!a-z0-9]+)[^>]*>/gi)) {
    const tag = name.toLowerCase();
    if (VOID.has(tag)) continue;
    if (!close) stack.push(tag);
    else if (stack.pop() !== tag) return [`unexpected </${tag}>`];
  }
  return stack;
}

describe("HTML export", () => {
  const html = toHtml(doc());
  it("is one self-contained page: no script, no external resource, a CSP that forbids loading any", () => {
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|src=|href=|url\(|@import/i);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    );
    expect(html).toContain('<meta charset="utf-8">');
  });
  it("light and dark by the system setting", () => {
    expect(html).toContain("color-scheme: light dark");
    expect(html).toContain("@media (prefers-color-scheme: dark)");
  });
  it("escapes all session text and strips controls", () => {
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp;");
    expect(html).not.toMatch(CONTROLS);
    expect(html.match(/<script/g)).toBeNull();
  });
  it("renders light Markdown, tools and thinking in closed <details>", () => {
    expect(html).toContain("<h4>Plan</h4>");
    expect(html).toContain('<div class="li" style="margin-left:0ch"><span>•</span><span>read</span></div>');
    expect(html).toContain("<pre><code>const a = 1 &lt; 2;</code></pre>");
    expect(html).toContain('<details class="thinking"><summary>Thinking</summary><p>think\nharder</p></details>');
    expect(html).toMatch(
      /<details class="block tool error"><summary>bash: echo `x` <span class="size">· 3 lines · error<\/span><\/summary><pre>```\nfenced\n````<\/pre><\/details>/,
    );
    expect(html).toContain('<summary>read: a.ts <span class="size">· no result</span></summary></details>');
    expect(html).not.toMatch(/<details[^>]* open/);
  });
  it("every element is closed, in order (void elements aside)", () => {
    expect(balanced(html)).toEqual([]);
  });
  it("any Markdown-ish text: the page is built, balanced, and holds no raw < from the session", () => {
    const token = fc.constantFrom(
      "# ",
      "## h",
      "- ",
      "  * ",
      "1. ",
      "> ",
      "```",
      "~~~",
      "---",
      "\n",
      "\n\n",
      "text",
      " ",
      "<b>",
      "&",
      "`",
      "研",
      "\u001b[1m",
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 60 }), (tokens) => {
        const text = tokens.join("");
        const page = toHtml(
          doc({
            sections: [
              {
                blocks: [
                  { kind: "user", entryId: "u", text, images: 0 },
                  {
                    kind: "assistant",
                    entryId: "a",
                    parts: [
                      { type: "thinking", text },
                      { type: "text", text },
                    ],
                  },
                ],
              },
            ],
          }),
        );
        expect(page).not.toContain("<b>");
        expect(balanced(page)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
  it("escapeHtml covers the five characters", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});

describe("jsonLine", () => {
  it("escapes C1 controls, bidi overrides and line separators; parses back to the same value", () => {
    const v = { t: "a\u009b31m\u202e\u2028b\u001b", n: 1 };
    const line = jsonLine(v);
    expect(line).not.toMatch(CONTROLS);
    expect(line).not.toContain("\n");
    expect(line).not.toContain("\u2028");
    expect(JSON.parse(line)).toEqual(v);
  });
});

import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/text/sanitize.js";
import { makeSummary } from "../../test/helpers/sessions.js";
import { fromProbe } from "../../src/browser/list/sessions.js";
import { factLines, predates, highlightConversation, previewLines, previewView } from "./previewLines.js";
import type { PreviewState } from "./types.js";
import { parseQuery } from "../../src/search/query.js";

const s = makeSummary({ name: "My task", leafCount: 3, labelCount: 2, cost: 1.5, models: ["m1", "m2"] });
const ready = (n: number): PreviewState => ({
  status: "ready",
  tail: {
    entries: Array.from({ length: n }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      text: `message number ${i}`,
      toolCalls: i % 2 ? [`bash: step ${i}`] : [],
    })),
    pathLength: n,
  },
});
const texts = (ls: { text: string }[]) => ls.map((l) => l.text);

describe("factLines", () => {
  it("lists path, id, cwd, dates, models, tokens, cost, branches and labels", () => {
    const t = texts(factLines(s, 80)).join("\n");
    for (const k of [
      "My task",
      "path",
      "id",
      "cwd",
      "created",
      "modified",
      "models   m1, m2",
      "tokens",
      "cost     $1.50",
      "branches 3",
      "labels 2",
    ])
      expect(t).toContain(k);
  });
  it("says when the last message is older than the file (a fork or an import), and not otherwise", () => {
    const older = { ...s, created: new Date("2026-11-21T06:04:00Z"), modified: new Date("2026-03-01T09:11:00Z") };
    expect(texts(factLines(older, 100)).find((l) => l.startsWith("modified"))).toContain(
      "(last message: copied from an older session)",
    );
    expect(texts(factLines(s, 100)).join("\n")).not.toContain("copied in");
    expect(predates({ created: new Date(1000), modified: new Date(1000) })).toBe("");
  });
  it("packs facts when compact", () => {
    expect(factLines(s, 80, true).length).toBeLessThan(factLines(s, 80).length);
  });
  it("says counts are pending for a provisional row", () => {
    const p = fromProbe({ path: "/p", id: "i", cwd: "/", created: new Date(), bytes: 1, mtimeMs: 0 });
    expect(texts(factLines(p, 80)).join("\n")).toContain("counting");
  });
});

describe("previewLines", () => {
  it("never exceeds the pane", () => {
    for (const [w, h] of [
      [40, 10],
      [80, 30],
      [20, 5],
      [60, 1],
    ] as const) {
      const ls = previewLines(s, ready(50), w, h);
      expect(ls.length).toBeLessThanOrEqual(h);
      for (const l of ls) expect(displayWidth(l.text)).toBeLessThanOrEqual(w);
    }
  });
  it("shows the end of the conversation, tool calls as single lines", () => {
    const t = texts(previewLines(s, ready(50), 80, 30));
    expect(t[t.length - 1]).toContain("→ bash: step 49");
    expect(t).toContain("  message number 49");
    expect(t.join("\n")).not.toContain("message number 0\n");
  });
  it("shows loading and errors", () => {
    expect(texts(previewLines(s, { status: "loading" }, 80, 30))).toContain("loading…");
    expect(texts(previewLines(s, { status: "error", error: "EACCES" }, 80, 30)).join()).toContain(
      "cannot read: EACCES",
    );
  });
  it("says when there are no messages", () => {
    expect(texts(previewLines(s, ready(0), 80, 30))).toContain("(no messages)");
  });
  it("wraps long text to the width", () => {
    const long: PreviewState = {
      status: "ready",
      tail: { entries: [{ role: "user", text: "word ".repeat(40), toolCalls: [] }], pathLength: 1 },
    };
    const t = previewLines(s, long, 30, 40);
    expect(t.filter((l) => l.text.startsWith("  word")).length).toBeGreaterThan(3);
  });
});

describe("previewView in a short pane (below the list, as at 80×24)", () => {
  const withHead: PreviewState = {
    status: "ready",
    tail: {
      entries: [{ role: "assistant", text: "the last reply", toolCalls: [] }],
      head: [
        { role: "user", text: "fix the parser please", toolCalls: [] },
        { role: "assistant", text: "", toolCalls: ["read: parser.ts"] },
        { role: "assistant", text: "done: the parser is fixed", toolCalls: [] },
      ],
      pathLength: 40,
    },
  };
  it("shows the first exchange first, then the facts", () => {
    const t = texts(previewLines(s, withHead, 78, 7));
    expect(t.slice(0, 3)).toEqual(["you", "  fix the parser please", "assistant"]);
    expect(t.at(-1)).toMatch(/^↓ \d+ more lines/);
    const whole = texts(previewLines(s, withHead, 78, 19));
    const rule = whole.findIndex((l) => l.startsWith("─"));
    expect(whole.slice(0, rule).join("\n")).toContain("  done: the parser is fixed");
    expect(whole.slice(0, rule).join("\n")).not.toContain("the last reply");
    expect(whole.slice(rule + 1).join("\n")).toMatch(/path[\s\S]*stats/);
    expect(texts(previewView(s, withHead, 78, 7, 99).lines).at(-1)).toMatch(/^stats/);
  });
  it("scrolls from the top down to the facts' end and no further", () => {
    const v = previewView(s, withHead, 78, 7);
    expect(v.bounds.min).toBe(0);
    expect(v.bounds.max).toBeGreaterThan(0);
    expect(texts(previewView(s, withHead, 78, 7, v.bounds.max + 5).lines)).toEqual(
      texts(previewView(s, withHead, 78, 7, v.bounds.max).lines),
    );
  });
  it("highlights a search's match in the conversation, not in the facts", () => {
    const marked = highlightConversation(previewView(s, withHead, 78, 19).lines, parseQuery("parser"));
    expect(marked.find((l) => l.text.includes("fix the parser"))?.ranges?.length).toBeGreaterThan(0);
    const named = { ...s, name: "parser work" };
    const facts = highlightConversation(previewView(named, withHead, 78, 19).lines, parseQuery("parser"));
    expect(facts.find((l) => l.text === "parser work")?.ranges).toBeUndefined();
  });
});

describe("previewView: where the conversation starts, and scrolling", () => {
  const conv = (ls: { text: string }[]) => texts(ls).slice(texts(ls).findIndex((t) => t.startsWith("─")) + 1);
  const roles = new Set(["you", "assistant"]);

  it("starts at a role line, never inside a message", () => {
    for (const h of [20, 21, 22, 23, 24, 26, 30]) {
      const c = conv(previewView(s, ready(50), 80, h).lines);
      expect(roles.has(c[0])).toBe(true);
      expect(c.at(-1)).toContain("step 49");
    }
  });

  it("a last message longer than the pane shows its role line and head, with how much more", () => {
    const long: PreviewState = {
      status: "ready",
      tail: {
        entries: [
          { role: "user", text: "x", toolCalls: [] },
          { role: "assistant", text: Array.from({ length: 60 }, (_, i) => `line ${i}`).join("\n"), toolCalls: [] },
        ],
        pathLength: 2,
      },
    };
    const v = previewView(s, long, 80, 30);
    const c = conv(v.lines);
    expect(c[0]).toBe("assistant");
    expect(c[1]).toBe("  line 0");
    expect(c.at(-1)).toMatch(/^↓ \d+ more lines/);
    expect(v.bounds.max).toBeGreaterThan(0);
    // Scrolled to the end: the last line shows.
    expect(conv(previewView(s, long, 80, 30, v.bounds.max).lines).at(-1)).toBe("  line 59");
  });

  it("scrolls up by lines to the first entry and no further", () => {
    const v = previewView(s, ready(50), 80, 30, -3);
    expect(v.bounds.min).toBeLessThan(-3);
    const top = conv(previewView(s, ready(50), 80, 30, v.bounds.min).lines);
    expect(top[0]).toBe("you");
    expect(top[1]).toBe("  message number 0");
    expect(conv(previewView(s, ready(50), 80, 30, v.bounds.min - 10).lines)).toEqual(top);
    expect(conv(v.lines).at(-1)).toMatch(/^↓ \d+ more lines/);
  });
});

describe("highlightConversation", () => {
  it("marks matches in the conversation, not in the facts or the rule", async () => {
    const { parseQuery } = await import("../../src/search/query.js");
    const named = makeSummary({ name: "message task", cwd: "/srv/message" });
    const lines = highlightConversation(previewLines(named, ready(4), 80, 30), parseQuery("message"));
    const rule = lines.findIndex((l) => l.text.startsWith("─"));
    expect(lines.slice(0, rule + 1).every((l) => !l.ranges)).toBe(true);
    const marked = lines.filter((l) => l.ranges);
    expect(marked.map((l) => l.text)).toEqual([
      "  message number 0",
      "  message number 1",
      "  message number 2",
      "  message number 3",
    ]);
    expect(marked[0].ranges).toEqual([[2, 9]]);
  });
});

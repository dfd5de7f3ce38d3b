import { afterEach, describe, expect, it } from "vitest";
import { truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assistant, entry, user, writeSession } from "../../test/helpers/session-file.js";
import {
  fieldQuery,
  fullTextSignature,
  LazySnippet,
  makeSnippet,
  searchFile,
  searchFileSync,
  searchStore,
  textTerms,
} from "./fulltext.js";
import { parseQuery } from "./query.js";

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function session(entries: Record<string, unknown>[]): string {
  const s = writeSession(entries);
  cleanups.push(s.cleanup);
  return s.path;
}

const toolCall = (id: string, parent: string, command: string) =>
  entry(id, parent, {
    message: {
      role: "assistant",
      content: [{ type: "toolCall", id: "c1", name: "bash", arguments: { command } }],
      stopReason: "toolUse",
      model: "m",
    },
  });
const toolResult = (id: string, parent: string, text: string) =>
  entry(id, parent, {
    message: {
      role: "toolResult",
      toolCallId: "c1",
      toolName: "bash",
      content: [{ type: "text", text }],
      isError: false,
      timestamp: 1,
    },
  });

async function search(paths: string[], q: string, includeTools = false) {
  const hits = new Map<string, string>();
  const res = await searchStore(paths, parseQuery(q), { includeTools, onMatch: (p, s) => hits.set(p, s) });
  return { hits, res };
}

describe("searchStore", () => {
  it("ANDs terms across different messages of one session", async () => {
    const a = session([
      user("u1", null, "please refactor the parser"),
      assistant("a1", "u1", "done; the tokenizer is faster now"),
    ]);
    const b = session([user("u1", null, "refactor the renderer"), assistant("a1", "u1", "ok")]);
    const { hits, res } = await search([a, b], "tokenizer refactor");
    expect([...hits.keys()]).toEqual([a]);
    expect(res).toEqual({ searched: 2, matched: 1, aborted: false });
    // Snippet comes from the first hit in file order.
    expect(hits.get(a)).toContain("refactor the parser");
  });

  it("matches case-insensitively (a lowercase word), folds accents and finds non-ASCII text", async () => {
    const a = session([user("u1", null, "Grüße aus dem Café, ganz naïve")]);
    expect((await search([a], "café")).hits.has(a)).toBe(true);
    expect((await search([a], "naive")).hits.has(a)).toBe(true);
    expect((await search([a], "grüße")).hits.has(a)).toBe(true);
  });

  it("smart case: a word with a capital matches only as written", async () => {
    const a = session([user("u1", null, "the Parser broke")]);
    expect((await search([a], "Parser")).hits.has(a)).toBe(true);
    expect((await search([a], "PARSER")).hits.has(a)).toBe(false);
    expect((await search([a], "parser")).hits.has(a)).toBe(true);
  });

  it("an exact phrase needs the words together", async () => {
    const a = session([user("u1", null, "the build cache is stale")]);
    const b = session([user("u1", null, "cache the build output")]);
    const { hits } = await search([a, b], '"build cache"');
    expect([...hits.keys()]).toEqual([a]);
  });

  it("re: patterns run over message text", async () => {
    const a = session([user("u1", null, "error code E1234 again")]);
    const b = session([user("u1", null, "error code EABCD")]);
    const { hits } = await search([a, b], "re:E\\d{4}");
    expect([...hits.keys()]).toEqual([a]);
    expect(hits.get(a)).toContain("E1234");
  });

  it("tool output only counts with includeTools", async () => {
    const a = session([
      user("u1", null, "run the tests"),
      toolCall("a1", "u1", "npm test"),
      toolResult("t1", "a1", "FAIL src/quux.test.ts"),
    ]);
    expect((await search([a], "quux")).hits.size).toBe(0);
    const on = await search([a], "quux", true);
    expect(on.hits.get(a)).toContain("FAIL src/quux.test.ts");
    // Tool calls are tool activity too.
    expect((await search([a], "npm")).hits.size).toBe(0);
    expect((await search([a], "npm", true)).hits.size).toBe(1);
  });

  it("never hits on JSON keys, values outside the text, ids or escapes", async () => {
    const a = session([
      user("u1", null, 'a line\nwith "quotes" and \\ backslash'),
      assistant("a1", "u1", "plain answer", { model: "claude-sonnet" }),
    ]);
    for (const q of [
      "role",
      "content",
      "message",
      "stopReason",
      "claude",
      "u1",
      "timestamp",
      "user",
      "assistant",
      "\\n",
      "type",
    ]) {
      expect((await search([a], q)).hits.size, q).toBe(0);
    }
    // Text with quotes and backslashes is found as written, not as escaped in JSON.
    expect((await search([a], 'with "quotes" and')).hits.size).toBe(1);
    expect((await search([a], "\\")).hits.size).toBe(1);
    expect((await search([a], "\\ backslash")).hits.size).toBe(1);
  });

  it("reports nothing after an abort", async () => {
    const paths = Array.from({ length: 20 }, () => session([user("u1", null, "needle in a haystack")]));
    const ac = new AbortController();
    const hits: string[] = [];
    const res = await searchStore(paths, parseQuery("needle"), {
      includeTools: false,
      signal: ac.signal,
      concurrency: 1,
      onMatch: (p) => {
        hits.push(p);
        if (hits.length === 3) ac.abort();
      },
    });
    expect(hits).toHaveLength(3);
    expect(res.aborted).toBe(true);
  });

  it("skips unreadable and damaged files", async () => {
    const a = session([user("u1", null, "needle")]);
    writeFileSync(a, '{"type":"session"}\n{not json needle\n' + JSON.stringify(user("u2", null, "needle here")) + "\n");
    const { hits } = await search([a, join(a, "..", "missing.jsonl")], "needle");
    expect([...hits.keys()]).toEqual([a]);
  });

  it("finds a term in a line longer than the read chunk", async () => {
    const long = "x".repeat(300_000) + " needle " + "y".repeat(10);
    const a = session([user("u1", null, long)]);
    expect((await searchFile(a, textTerms(parseQuery("needle")), false))?.snippet).toMatch(/^…x+ needle y+$/);
  });
});

describe("query helpers", () => {
  it("splits text and field terms", () => {
    const q = parseQuery("cwd:api parser re:x+");
    expect(textTerms(q).map((t) => t.kind)).toEqual(["word", "regex"]);
    expect(fieldQuery(q).terms.map((t) => t.kind)).toEqual(["field"]);
  });

  it("signature: null when there is nothing worth reading the store for", () => {
    expect(fullTextSignature(parseQuery(""))).toBeNull();
    expect(fullTextSignature(parseQuery("a"))).toBeNull();
    expect(fullTextSignature(parseQuery("cwd:api"))).toBeNull();
    expect(fullTextSignature(parseQuery("re:("))).toBeNull();
    expect(fullTextSignature(parseQuery("ab"))).not.toBeNull();
    expect(fullTextSignature(parseQuery("ab  "))).toBe(fullTextSignature(parseQuery("ab")));
  });
});

describe("makeSnippet", () => {
  it("keeps the hit in view with a little context, on one sanitized line", () => {
    const text = "word ".repeat(40) + "NEEDLE\x1b[31m red\x1b[0m\n" + "tail ".repeat(40);
    const s = makeSnippet(text, text.indexOf("NEEDLE"), 6);
    expect(s.startsWith("…")).toBe(true);
    expect(s).toContain("NEEDLE red tail");
    expect(s).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    expect(s.length).toBeLessThanOrEqual(60);
  });

  it("does not add an ellipsis at the start of the text", () => {
    expect(makeSnippet("needle at start", 0, 6)).toBe("needle at start");
  });

  it("made when first read (LazySnippet), is the same text, wherever the hit is and whatever is around it", () => {
    const texts = [
      "needle at start",
      "word ".repeat(40) + "NEEDLE\x1b[31m red\x1b[0m\n" + "tail ".repeat(400),
      "函数 ".repeat(30) + "needle 🚀 " + "café ".repeat(100),
      "x".repeat(59) + "needle" + "y".repeat(500),
      "x".repeat(60) + "needle",
      "x".repeat(61) + "needle\t\t  end",
      "a\u0301".repeat(50) + "needle" + "\u200d".repeat(300),
    ];
    for (const text of texts) {
      const at = text.toLowerCase().indexOf("needle");
      const lazy = new LazySnippet(text, at, 6);
      expect(String(lazy), text.slice(0, 20)).toBe(makeSnippet(text, at, 6));
      // Asked again: the same (made once).
      expect(`${lazy}`).toBe(makeSnippet(text, at, 6));
    }
  });
});

describe("fieldQuery keeps date filters", () => {
  it("so a full-text hit still has to be in the date range", () => {
    const q = parseQuery("parser after:2026-10-01 7d cwd:x", new Date(2026, 10, 20));
    expect(fieldQuery(q).terms.map((t) => t.kind)).toEqual(["date", "date", "field"]);
  });
});

describe("searchFileSync", () => {
  it("reads line by line and stops at the last word found: a session ending in a sparse 3 GiB tail is a hit, not a file too big to read", () => {
    const p = session([user("u1", null, "please refactor the parser")]);
    truncateSync(p, 3 * 1024 ** 3);
    expect(searchFileSync(p, textTerms(parseQuery("parser")), false)).toMatchObject({ held: [true] });
  });

  it("throws for a file it cannot read (the caller's verdict is not 'no match')", () => {
    expect(() => searchFileSync("/no/such/session.jsonl", textTerms(parseQuery("parser")), false)).toThrow();
  });
});

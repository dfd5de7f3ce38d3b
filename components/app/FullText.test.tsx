import { afterEach, describe, expect, it } from "vitest";
import { cleanupInk, press, renderApp, resize, settle, typeText, waitForFrame } from "../../test/helpers/ink.js";
import { makeSummary } from "../../test/helpers/sessions.js";
import type { FullTextOptions } from "../../src/search/fulltext.js";
import type { Query } from "../../src/search/query.js";
import type { FullTextFn } from "../hooks/useFullTextSearch.js";

afterEach(cleanupInk);

const CWD = "/home/u/proj";
const sessions = Array.from({ length: 30 }, (_, i) =>
  makeSummary({
    path: `/s/${i}.jsonl`,
    cwd: CWD,
    firstMessage: i === 0 ? "tokenizer work" : `session number ${i}`,
    modified: new Date(100_000 - i * 1000),
  }),
);

/** A fake search: records each call, reports hits for the paths given, after a tick. */
function fakeFullText(hitsFor: (q: Query, tools: boolean) => Record<string, string>) {
  const calls: { query: Query; includeTools: boolean; aborted: () => boolean }[] = [];
  const fn: FullTextFn = async (targets, query, opts: FullTextOptions) => {
    calls.push({ query, includeTools: opts.includeTools, aborted: () => !!opts.signal?.aborted });
    await new Promise((r) => setTimeout(r, 5));
    const hits = hitsFor(query, opts.includeTools);
    let n = 0;
    for (const { path: p } of targets) {
      if (opts.signal?.aborted) break;
      if (hits[p]) opts.onMatch(p, hits[p], [true]);
      opts.onProgress?.(++n);
    }
    return { searched: n, matched: 0, aborted: !!opts.signal?.aborted };
  };
  return { fn, calls };
}

describe("full-text search in the browser", () => {
  it("streams text-only matches in under title matches, with the snippet under the row", async () => {
    const ft = fakeFullText((_q, tools) => ({
      "/s/7.jsonl": "…the tokenizer was slow",
      ...(tools ? { "/s/9.jsonl": "tokenizer.ts: 3 errors" } : {}),
    }));
    const { r } = await renderApp({ sessions, launchCwd: CWD, deps: { fullText: ft.fn } });
    await resize(r, 100, 24);
    await press(r, "/");
    await typeText(r, "tokenizer");
    const f = await waitForFrame(r, (s) => s.includes("the tokenizer was slow"), 3000);
    const lines = f.split("\n");
    const row = lines.findIndex((l) => l.includes("session number 7"));
    expect(lines.findIndex((l) => l.includes("tokenizer work"))).toBeLessThan(row);
    expect(lines[row + 1]).toContain("↳ …the tokenizer was slow");
    expect(f).toMatch(/2 matches · full text/);
    // Debounced: one search for the whole word, not one per letter.
    expect(ft.calls).toHaveLength(1);
    // Ctrl+T includes tool output: a new search with includeTools.
    await press(r, "\x14");
    await waitForFrame(r, (s) => s.includes("tokenizer.ts: 3 errors"), 3000);
    expect(ft.calls.at(-1)?.includeTools).toBe(true);
    expect(r.lastFrame()).toContain("+tools");
  });

  it("aborts the running search when the query changes", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const calls: AbortSignal[] = [];
    const fn: FullTextFn = async (_paths, _q, opts) => {
      calls.push(opts.signal!);
      await gate;
      return { searched: 0, matched: 0, aborted: true };
    };
    const { r } = await renderApp({ sessions, launchCwd: CWD, deps: { fullText: fn } });
    await press(r, "/");
    await typeText(r, "ab");
    await waitForFrame(r, () => calls.length === 1, 2000);
    await typeText(r, "c");
    await waitForFrame(r, () => calls.length === 2, 2000);
    expect(calls[0].aborted).toBe(true);
    expect(calls[1].aborted).toBe(false);
    release();
    await settle(10);
  });

  it("keeps the cursor row visible with two-line rows while moving down", async () => {
    const hits: Record<string, string> = {};
    for (const s of sessions) hits[s.path] = `snippet of ${s.path}`;
    const ft = fakeFullText(() => hits);
    const { r } = await renderApp({ sessions, launchCwd: CWD, deps: { fullText: ft.fn } });
    await resize(r, 100, 24);
    await press(r, "/");
    await typeText(r, "zz");
    await press(r, "\r");
    await waitForFrame(r, (s) => s.includes("snippet of /s/1.jsonl"), 3000);
    for (let i = 0; i < 12; i++) await press(r, "\x1b[B");
    const f = await waitForFrame(r, (s) => /❯ .*session number 12/.test(s), 2000);
    const lines = f.split("\n");
    const at = lines.findIndex((l) => l.includes("❯"));
    expect(lines[at + 1]).toContain("snippet of /s/12.jsonl");
  });
});

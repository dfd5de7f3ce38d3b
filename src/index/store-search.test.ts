import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, copyStore, FIXTURES, makeTmpDir, PI_STORE, settle } from "../../test/helpers/tmp-store.js";
import { scanStore } from "../scan/scan-store.js";
import { LazySnippet, searchStore } from "../search/fulltext.js";
import { parseQuery } from "../search/query.js";
import { coverageOf } from "./index-search.js";
import { storeSearch } from "./store-search.js";
import { openStoreIndex } from "./store-index.js";
import { indexStaleText } from "./text-index.js";

afterEach(() => cleanupTmp());

/** Every hit of a search, sorted (hits come in completion order), and what it says it did. */
async function hitsOf(search: typeof searchStore | ReturnType<typeof storeSearch>, targets: unknown[], q: string) {
  const hits: string[] = [];
  /** How many snippets came to be made only when read (LazySnippet). */
  let lazy = 0;
  const r = await search(targets as never, parseQuery(q), {
    includeTools: false,
    onMatch: (path, snippet) => {
      if (snippet instanceof LazySnippet) lazy++;
      hits.push(`${path} ${String(snippet)}`);
    },
  });
  return { hits: hits.sort(), r, lazy };
}

/** `store` settled, scanned and its text indexed under a cache of its own: its sessions, as search targets too, and how many files the index cannot cover. */
async function indexedStore(store: string) {
  // Files last written a while ago: one read within a tick of its write is rightly read whole.
  settle(store);
  const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
  const index = openStoreIndex(store, (m) => expect.fail(m), { env })!;
  const { sessions } = await scanStore(store, {}, { cache: index.scans });
  await indexStaleText(index.db, undefined, { tools: false });
  const targets = sessions.map((s) => ({ path: s.path, bytes: s.bytes, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs }));
  const uncovered = coverageOf(index.db, targets)!.fid.filter((f) => f < 0).length;
  index.close();
  return { env, sessions, targets, uncovered };
}

/** The words (three letters or more) of the sessions' first messages, each once. */
const firstMessageWords = (sessions: { firstMessage: string }[]) => [
  ...new Set(sessions.flatMap((s) => s.firstMessage.split(/\s+/)).filter((w) => /^\p{L}{3,}$/u.test(w))),
];

describe("the browser's full-text search (storeSearch)", () => {
  it.each([PI_STORE, join(FIXTURES, "pi-1.5.2", "agent", "sessions")])(
    "asks the index, not the files, when the index covers the store, and finds what reading finds (%s)",
    async (fixture) => {
      const store = copyStore(fixture);
      const { env, sessions, targets, uncovered } = await indexedStore(store);
      expect(uncovered).toBeLessThan(targets.length / 4);
      const words = firstMessageWords(sessions).slice(0, 6);
      expect(words.length).toBeGreaterThan(0);
      const search = storeSearch(store, env);
      for (const q of [...words, words.join(" "), "zebra-never-said", `"${words[0]}"`]) {
        const plain = await hitsOf(searchStore, sessions.map((s) => s.path) as never, q);
        const indexed = await hitsOf(search, targets, q);
        expect(indexed.hits, q).toEqual(plain.hits);
        // The browser shows a screenful of them: each from the index is made when drawn.
        if (indexed.hits.length > uncovered) expect(indexed.lazy, q).toBeGreaterThan(0);
        expect(indexed.r.searched, q).toBe(targets.length);
        // Decided by the index, but for the files it cannot cover (a torn last line): read whole.
        expect(indexed.r.readWhole, q).toBe(uncovered);
      }
      // Without the index (turned off), the same hits, every file read.
      const off = storeSearch(store, { ...env, PI_SESSIONS_INDEX: "0" });
      const read = await hitsOf(off, targets, words[0]);
      expect(read.hits).toEqual((await hitsOf(searchStore, sessions.map((s) => s.path) as never, words[0])).hits);
      expect(read.r.readWhole).toBe(targets.length);
    },
  );
});

describe("the browser's full-text search answered early (a word in most sessions)", () => {
  it("asks the index, not the files, and when done holds what reading finds", async () => {
    const store = copyStore(PI_STORE);
    const { env, sessions, targets, uncovered } = await indexedStore(store);
    // Every word answered early (above 0), one session checked before the rest are named.
    const search = storeSearch(store, env, { above: 0, checkFirst: 1 });
    let named = 0;
    const words = firstMessageWords(sessions).slice(0, 4);
    for (const q of [...words, words.slice(0, 2).join(" ")]) {
      const plain = await hitsOf(searchStore, sessions.map((s) => s.path) as never, q);
      const hits = new Map<string, string>();
      let checking = -1;
      const r = await search(targets, parseQuery(q), {
        includeTools: false,
        onMatch: (path, snippet) => hits.set(path, `${path} ${String(snippet)}`),
        onMiss: (path) => hits.delete(path),
        onChecking: (left) => {
          if (checking < 0) named += left;
          checking = left;
        },
      });
      expect([...hits.values()].sort(), q).toEqual(plain.hits);
      expect(checking, q).toBe(0);
      expect(r.searched, q).toBe(targets.length);
      expect(r.readWhole, q).toBe(uncovered);
    }
    expect(named).toBeGreaterThan(10);
  });
});

describe("the browser's full-text search when the early answer fails after naming hits", () => {
  it("reads every file and takes back each named hit its file does not hold", async () => {
    const store = makeTmpDir("early-fail-store-");
    const dir = join(store, "--home-u-proj--");
    mkdirSync(dir, { recursive: true });
    const paths: string[] = [];
    for (let i = 0; i < 8; i++) {
      const id = `0190a0b0-0000-7000-8000-0000000001${String(i).padStart(2, "0")}`;
      const path = join(dir, `2026-11-28T00-00-${String(i).padStart(2, "0")}-000Z_${id}.jsonl`);
      // Even ones hold "parser"; odd ones only "par" and "ser" apart, which the index names too.
      const text = i % 2 === 0 ? `fix the parser ${i}` : `a part of the user ${i}`;
      const head = { type: "session", version: 3, id, timestamp: "2026-11-28T00:00:00.000Z", cwd: "/home/u/proj" };
      const msg = {
        type: "message",
        id: `m${i}`,
        parentId: null,
        timestamp: "2026-11-28T00:00:00.000Z",
        message: { role: "user", content: text },
      };
      writeFileSync(path, `${JSON.stringify(head)}\n${JSON.stringify(msg)}\n`);
      paths.push(path);
    }
    const { env, targets } = await indexedStore(store);
    const search = storeSearch(store, env, { above: 0, checkFirst: 1 });
    const hits = new Set<string>();
    let named = 0;
    await search(targets, parseQuery("parser"), {
      includeTools: false,
      onMatch: (path) => void hits.add(path),
      onMiss: (path) => void hits.delete(path),
      onChecking: (left) => {
        named = left;
        // Anything failing once the rest are named (here: the caller).
        throw new Error("failed after the named report");
      },
    });
    expect(named).toBeGreaterThan(2);
    expect([...hits].sort()).toEqual(paths.filter((_, i) => i % 2 === 0).sort());
  });
});

describe("the browser's full-text search, best first", () => {
  it("checks the sessions whose own fields hold more of the words first, whatever the targets' order", async () => {
    const store = copyStore(PI_STORE);
    const { env, sessions, targets } = await indexedStore(store);
    // The word of the first messages found in the most conversations.
    let word = "";
    let all: string[] = [];
    for (const w of firstMessageWords(sessions)) {
      const found: string[] = [];
      await storeSearch(store, env)(targets, parseQuery(w), {
        includeTools: false,
        onMatch: (path) => found.push(path),
      });
      if (found.length > all.length) [word, all] = [w, found];
    }
    expect(all.length).toBeGreaterThan(3);
    // Every other session "has the word in its name": it needs nothing of its conversation.
    const own = new Set(all.filter((_, i) => i % 2 === 1));
    const order: string[] = [];
    await storeSearch(store, env)(
      targets.filter((t) => all.includes(t.path)),
      parseQuery(word),
      {
        includeTools: false,
        need: (path) => [!own.has(path)],
        onMatch: (path) => order.push(path),
      },
    );
    expect(order.slice(0, own.size).sort()).toEqual([...own].sort());
  });
});

import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, copyStore, FIXTURES, makeTmpDir, PI_STORE, settle } from "../../test/helpers/tmp-store.js";
import { scanStore } from "../scan/scan-store.js";
import { searchStore, SnippetLater, type SearchTarget } from "../search/fulltext.js";
import { parseQuery } from "../search/query.js";
import { searchEarly } from "./early-answer.js";
import { openStoreIndex } from "./store-index.js";
import { indexStaleText } from "./text-index.js";
import { parserStore } from "../../test/helpers/parser-store.js";

afterEach(() => cleanupTmp());

/** What reading every file finds: path → held words and snippet. */
async function plain(paths: string[], q: string, includeTools: boolean) {
  const out = new Map<string, string>();
  await searchStore(paths, parseQuery(q), {
    includeTools,
    onMatch: (path, snippet, held) => out.set(path, `${held.join()} ${String(snippet)}`),
  });
  return out;
}

/** The hits as the browser keeps them (a later report of a path replaces it, a miss takes it back), and what was named. */
async function early(
  db: Parameters<typeof searchEarly>[0],
  targets: SearchTarget[],
  q: string,
  includeTools: boolean,
  checkFirst: number,
  onAnswered?: () => void,
) {
  const hits = new Map<string, string>();
  const named = new Set<string>();
  /** The snippets of the named, read only when asked (as when their rows are drawn). */
  const later = new Map<string, SnippetLater>();
  const misses: string[] = [];
  /** Reported unchecked (as the index names them), and still so: what an action on its row waits for. */
  const flagged = new Set<string>();
  const unchecked = new Set<string>();
  const confirmed: string[] = [];
  let answered = -1;
  const r = await searchEarly(db, targets, parseQuery(q), {
    includeTools,
    above: 0,
    checkFirst,
    onMatch: (path, snippet, held, isUnchecked) => {
      if (isUnchecked) flagged.add(path);
      if (isUnchecked) unchecked.add(path);
      else unchecked.delete(path);
      if (snippet instanceof SnippetLater && answered < 0) {
        named.add(path);
        later.set(path, snippet);
      }
      hits.set(path, `${held.join()} ${String(snippet)}`);
    },
    onConfirmed: (path) => {
      confirmed.push(path);
      unchecked.delete(path);
    },
    onMiss: (path) => {
      unchecked.delete(path);
      misses.push(path);
      hits.delete(path);
    },
    onChecking: (left) => {
      if (answered < 0) {
        answered = hits.size;
        onAnswered?.();
      }
      expect(left).toBeGreaterThanOrEqual(0);
    },
  });
  return { r, hits, named, later, misses, answered, flagged, unchecked, confirmed };
}

function targetsOf(paths: string[]): SearchTarget[] {
  return paths.map((path) => {
    const st = statSync(path);
    return { path, bytes: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
  });
}

describe("searchEarly (the browser's answer before every file is checked)", () => {
  it("when done, holds what reading every file finds, though most hits were first reported as the index named them", async () => {
    let namedSeen = 0;
    for (const fixture of [PI_STORE, join(FIXTURES, "pi-1.5.2", "agent", "sessions")]) {
      const store = copyStore(fixture);
      settle(store);
      const index = openStoreIndex(store, (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
      const { sessions } = await scanStore(store, {}, { cache: index.scans });
      await indexStaleText(index.db);
      const paths = sessions.map((s) => s.path);
      // A session pi appended to since it was indexed: read whole, never reported as named.
      const grown = sessions.find((s) => readFileSync(s.path).at(-1) === 0x0a)!.path;
      appendFileSync(
        grown,
        JSON.stringify({
          type: "message",
          id: "grown1",
          parentId: null,
          timestamp: "2026-11-28T00:00:00.000Z",
          message: { role: "user", content: "the parser cache grew here" },
        }) + "\n",
      );
      const targets = targetsOf(paths);
      for (const q of ["the", "you", "file", "the file", "read the", "tool", "parser", "zzqx-none", "the zzqx-none"])
        for (const tools of [false, true]) {
          const want = await plain(paths, q, tools);
          const got = await early(index.db, targets, q, tools, 1);
          if (got.r === null) continue; // nothing the index names: searchWithIndex answers
          expect({ q, tools, hits: [...got.hits].sort() }).toEqual({ q, tools, hits: [...want].sort() });
          expect(got.r.searched).toBe(targets.length);
          expect(got.r.matched).toBe(want.size);
          expect(got.named.has(grown)).toBe(false);
          namedSeen += got.named.size;
        }
      index.close();
    }
    expect(namedSeen).toBeGreaterThan(20);
  });

  it("takes back a session the index named whose file does not hold the word (its grams apart), and checks the first ones before naming the rest", async () => {
    const store = makeTmpDir("early-store-");
    const dir = join(store, "--home-u-proj--");
    const line = (id: string, text: string) =>
      JSON.stringify({
        type: "message",
        id,
        parentId: null,
        timestamp: "2026-11-28T00:00:00.000Z",
        message: { role: "user", content: text },
      });
    const header = (id: string) =>
      JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-11-28T00:00:00.000Z", cwd: "/home/u/proj" });
    const paths: string[] = [];
    for (let i = 0; i < 12; i++) {
      const id = `0190a0b0-0000-7000-8000-0000000000${String(i).padStart(2, "0")}`;
      const path = join(dir, `2026-11-28T00-00-${String(i).padStart(2, "0")}-000Z_${id}.jsonl`);
      // Even ones hold "parser"; odd ones only "par" and "ser" apart, which the index names too.
      const text = i % 2 === 0 ? `fix the parser ${i}` : `a part of the user ${i}`;
      paths.push(path);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path, `${header(id)}\n${line(`m${i}`, text)}\n`);
    }
    settle(store);
    const index = openStoreIndex(store, (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
    await scanStore(store, {}, { cache: index.scans });
    await indexStaleText(index.db);
    const targets = targetsOf(paths);
    const got = await early(index.db, targets, "parser", false, 2);
    expect(got.r).not.toBeNull();
    const want = await plain(paths, "parser", false);
    expect([...got.hits].sort()).toEqual([...want].sort());
    expect(want.size).toBe(6);
    // Checked until two held the word before any was named (the second checked turned down
    // then, so three checked), the rest named, and every odd one of them then taken back.
    expect(got.answered).toBe(11);
    expect(got.named.size).toBe(9);
    expect(got.misses.sort()).toEqual(paths.filter((_, i) => i % 2 === 1 && i > 2).sort());
    // Those named are reported unchecked, and each is confirmed (or taken back) by its file: none is left to check.
    expect([...got.flagged].sort()).toEqual([...got.named].sort());
    expect(got.confirmed.sort()).toEqual([...got.named].filter((p) => want.has(p)).sort());
    expect(got.unchecked.size).toBe(0);

    // The list's order decides which are checked first: its machine's group, then the rank.
    const shownFirst = paths[10];
    const checkedFirst: string[] = [];
    await searchEarly(index.db, targets, parseQuery("parser"), {
      includeTools: false,
      above: 0,
      checkFirst: 1,
      place: (p) => (p === shownFirst ? { group: 0, rank: 0, at: 99 } : { group: 1, rank: 9, at: 0 }),
      onMatch: (p, _s, _h, isUnchecked) => void (isUnchecked ? undefined : checkedFirst.push(p)),
      onMiss: () => {},
      onChecking: () => {},
    });
    expect(checkedFirst[0]).toBe(shownFirst);

    // pi writes the word to one of them once it was named, before it is checked: its file as
    // it is now decides (the lines the index named say no), not taken back.
    const late = await early(index.db, targets, "parser", false, 2, () =>
      appendFileSync(paths[5], line("late", "the parser came later") + "\n"),
    );
    expect(late.misses).not.toContain(paths[5]);
    expect([...late.hits.keys()].sort()).toEqual([...(await plain(paths, "parser", false)).keys()].sort());
    expect(late.hits.has(paths[5])).toBe(true);

    // The index changes while the named are checked (its text dropped, as dropOrphanText does,
    // or a file indexed again): a hit is taken back only when its FILE turns it down.
    const moved = await early(index.db, targets, "parser", false, 2, () =>
      index.db.transaction(() => {
        index.db.sql.exec("DELETE FROM lines");
        index.db.sql.exec("UPDATE files SET text_size = NULL, text_mtime = NULL, text_ctime = NULL");
      }),
    );
    const now = await plain(paths, "parser", false);
    expect(moved.misses.filter((p) => now.has(p))).toEqual([]);
    expect([...moved.hits.keys()].sort()).toEqual([...now.keys()].sort());
    // A named row drawn now: its snippet read from its file, not from the lines the index dropped.
    const drawn = [...moved.later].filter(([p]) => now.has(p));
    expect(drawn.length).toBeGreaterThan(2);
    for (const [, s] of drawn) expect(String(s)).toContain("parser");
    index.close();
  });

  it.each([1, 6])(
    "reports the first hits checked, those of the %i files read whole and the rest named as one burst (no turn of the event loop between, no progress said before), taken in before the named are checked",
    async (grownCount) => {
      // Some that pi appended to since they were indexed: read whole before the answer is said
      // (4 at a time: more than 4 took turns of the event loop between reads).
      const grown = [3, 5, 7, 8, 9, 10].slice(0, grownCount);
      const { store, env, paths } = await parserStore(12, grown);
      const index = openStoreIndex(store, (m) => expect.fail(m), { env })!;
      const targets = targetsOf(paths);
      let turned = false;
      let reported = 0;
      let checkedFirst = 0;
      let afterTurn = 0;
      let progressBefore = 0;
      let takenIn = false;
      let checksBeforeTakenIn = 0;
      /** The arrays of words held the named were reported with: one per set of words. */
      const namedHeld = new Set<readonly boolean[]>();
      const r = await searchEarly(index.db, targets, parseQuery("parser"), {
        includeTools: false,
        above: 0,
        checkFirst: 1,
        onMatch: (_path, _snippet, held, isUnchecked) => {
          // A turn of the event loop after the first hit lets the browser take it in as a batch of its own.
          if (reported++ === 0) {
            setImmediate(() => (turned = true));
            // As the browser takes hits in: on a timer.
            setTimeout(() => (takenIn = true), 0);
          }
          if (!isUnchecked) checkedFirst++;
          if (turned) afterTurn++;
          if (isUnchecked) namedHeld.add(held);
        },
        // Progress said before the answer is a batch the browser takes in alone.
        onProgress: () => void (progressBefore += reported === 0 ? 1 : 0),
        onConfirmed: () => void (checksBeforeTakenIn += takenIn ? 0 : 1),
        onMiss: () => void (checksBeforeTakenIn += takenIn ? 0 : 1),
        onChecking: () => {},
      });
      index.close();
      expect(r).not.toBeNull();
      expect(r!.readWhole).toBe(grownCount);
      expect(checkedFirst).toBe(1 + grownCount); // the one checked first and those read whole
      expect(reported).toBe(12); // and the rest named
      expect(afterTurn).toBe(0);
      expect(progressBefore).toBe(0);
      // And the answer is taken in before the named ones are checked.
      expect(checksBeforeTakenIn).toBe(0);
      expect([...namedHeld]).toEqual([[true]]);
    },
  );

  /** Whether the first hit checked was reported with a turn of the event loop before the first hit of a file read whole (not held for them). */
  async function firstCheckedAhead(n: number, grown: number[], padBytes = 0) {
    const { store, env, paths } = await parserStore(n, grown, padBytes);
    const index = openStoreIndex(store, (m) => expect.fail(m), { env })!;
    const wholePaths = new Set(grown.map((i) => paths[i]));
    let turned = false;
    /** Per report: read whole, and whether a turn of the event loop came since the first. */
    const seen: { whole: boolean; turned: boolean }[] = [];
    const r = await searchEarly(index.db, targetsOf(paths), parseQuery("parser"), {
      includeTools: false,
      above: 0,
      checkFirst: 1,
      onMatch: (path) => {
        if (seen.length === 0) setImmediate(() => (turned = true));
        seen.push({ whole: wholePaths.has(path), turned });
      },
      onMiss: () => {},
      onChecking: () => {},
    });
    index.close();
    expect(r!.readWhole).toBe(grown.length);
    const firstWhole = seen.findIndex((x) => x.whole);
    return { first: seen[0], firstWhole: seen[firstWhole] };
  }

  it("reports the first hit checked before reading a large file whole (held back by its bytes, not its count)", async () => {
    // One session pi appended 3 MB to since it was indexed.
    const { first, firstWhole } = await firstCheckedAhead(12, [3], 3 * 1024 * 1024);
    expect(first.whole).toBe(false);
    expect(firstWhole.turned).toBe(true);
  });

  it("reports the first hit checked before reading whole more than 32 files (small ones)", async () => {
    const grown = Array.from({ length: 33 }, (_, i) => i + 5);
    const { first, firstWhole } = await firstCheckedAhead(40, grown);
    expect(first.whole).toBe(false);
    expect(firstWhole.turned).toBe(true);
  });
});

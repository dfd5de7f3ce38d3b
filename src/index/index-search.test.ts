import { appendFileSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { collectGarbage } from "../cli/common/collect-garbage.js";
import { userLine } from "../../test/helpers/session-file.js";
import { hasFastProperties } from "../../test/helpers/fast-properties.js";
import { cleanupTmp, copyStore, FIXTURES, makeTmpDir, PI_STORE, settle } from "../../test/helpers/tmp-store.js";
import { scanStore } from "../scan/scan-store.js";
import { searchStore, type SearchTarget } from "../search/fulltext.js";
import { parseQuery } from "../search/query.js";
import {
  caughtUp,
  coverageOf,
  keptTextState,
  planWithIndex,
  readTextStates,
  searchWithIndex,
  textStatesWritten,
  type KnownCoverage,
} from "./index-search.js";
import { loadSqlite } from "./load-sqlite.js";
import { openStoreIndex } from "./store-index.js";
import { forgetText } from "./forget.js";
import { indexStaleText, staleTextFiles } from "./text-index.js";

afterEach(() => cleanupTmp());

describe("caughtUp", () => {
  it("says whether the index has read every session's text as the file is now", async () => {
    const store = copyStore(PI_STORE);
    settle(store);
    const index = openStoreIndex(store, (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
    const { sessions } = await scanStore(store, {}, { cache: index.scans });
    const targets = () => targetsOf(sessions);
    expect(caughtUp(index.db, targets(), false)).toBe(false); // summaries only: no text yet
    await indexStaleText(index.db, undefined, { tools: false });
    expect(caughtUp(index.db, targets(), false)).toBe(true);
    expect(caughtUp(index.db, targets(), true)).toBe(false); // tool texts were left out
    await indexStaleText(index.db);
    expect(caughtUp(index.db, targets(), true)).toBe(true);
    // An append the index has not read.
    const file = sessions[0].path;
    if (!readFileSync(file, "utf8").endsWith("\n")) appendFileSync(file, "\n");
    appendFileSync(file, '{"type":"custom","id":"c1","parentId":null,"timestamp":"2026-11-24T12:00:00.000Z"}\n');
    expect(caughtUp(index.db, targets(), false)).toBe(false);
    // Read, with a torn last line after it: the index cannot hold that line, so the file is
    // left to reading (not covered), and there is nothing more to catch up with.
    appendFileSync(file, '{"type":"custom","id":"c2","par');
    settle(file);
    await scanStore(store, {}, { cache: index.scans });
    await indexStaleText(index.db);
    expect(caughtUp(index.db, targets(), true)).toBe(true);
    const c = coverageOf(index.db, targets())!;
    expect(c.fid[0]).toBe(-1);
    expect(c.fid.slice(1).every((f) => f >= 0)).toBe(true);
    expect(c.caughtUp).toEqual([1, 1]);
    index.close();
  });
});

/** A copy of the fixture store, scanned and its text indexed into an index of its own. */
async function indexedCopy() {
  const store = copyStore(PI_STORE);
  settle(store);
  const index = openStoreIndex(store, (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
  const { sessions } = await scanStore(store, {}, { cache: index.scans });
  await indexStaleText(index.db, undefined, { tools: false });
  return { store, index, sessions };
}

/** Each session's file as a search target, as it is on disk now. */
function targetsOf(sessions: ReadonlyArray<{ path: string }>): SearchTarget[] {
  return sessions.map((s) => {
    const st = statSync(s.path);
    return { path: s.path, bytes: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
  });
}

/** The files the exact plan finds "parser" in, each with what it found: what a lazy plan must answer. */
async function exactParserHits({ index, sessions }: Awaited<ReturnType<typeof indexedCopy>>) {
  const exact = planWithIndex(index.db, parseQuery("parser"), false, undefined, { lazyAbove: Infinity })!;
  const held: Array<[SearchTarget, unknown]> = [];
  for (const t of targetsOf(sessions)) {
    const hit = await exact.check(t);
    if (hit) held.push([t, hit]);
  }
  return held;
}

describe("the text states kept between searches", () => {
  it("are fast objects with each row's fields, however they were read (ahead, by a search, after a write)", async () => {
    const { store, index, sessions } = await indexedCopy();
    const rows = () =>
      index.db
        .q("SELECT fid, path, text_size, text_mtime, text_ctime, text_whole, text_tools FROM files")
        .all() as unknown as Array<{ path: string }>;
    const keptAsRows = () => {
      for (const row of rows()) {
        const kept = keptTextState(index.db, row.path)!;
        expect(hasFastProperties(kept)).toBe(true);
        expect({ ...kept }).toEqual({ ...row });
      }
    };
    await readTextStates(index.db);
    keptAsRows();
    // Read by a search (after another connection wrote: the index's mark moved).
    const other = openStoreIndex(store, (m) => expect.fail(m), { path: index.db.path })!;
    await indexStaleText(other.db);
    other.close();
    expect(keptTextState(index.db, sessions[0].path)).toBeUndefined();
    expect(caughtUp(index.db, targetsOf(sessions), true)).toBe(true);
    keptAsRows();
    // Read again after this connection indexed one file.
    const file = sessions[0].path;
    if (!readFileSync(file, "utf8").endsWith("\n")) appendFileSync(file, "\n");
    appendFileSync(file, '{"type":"custom","id":"c1","parentId":null,"timestamp":"2026-11-24T12:00:00.000Z"}\n');
    settle(file);
    await scanStore(store, {}, { cache: index.scans });
    expect(caughtUp(index.db, targetsOf(sessions), true)).toBe(false);
    const before = index.db.changeMark();
    const written = staleTextFiles(index.db).map((r) => r.fid);
    await indexStaleText(index.db);
    textStatesWritten(index.db, before, written);
    expect(keptTextState(index.db, file)!.text_size).toBe(statSync(file).size);
    keptAsRows();
    index.close();
  });
});

describe("textStatesWritten", () => {
  it("after this connection indexed a few files, reads their text states alone, and says what every file's would", async () => {
    const { store, index, sessions } = await indexedCopy();
    const targets = () => targetsOf(sessions);
    const file = sessions[0].path;
    if (!readFileSync(file, "utf8").endsWith("\n")) appendFileSync(file, "\n");
    appendFileSync(file, '{"type":"custom","id":"c1","parentId":null,"timestamp":"2026-11-24T12:00:00.000Z"}\n');
    settle(file);
    await scanStore(store, {}, { cache: index.scans });
    expect(caughtUp(index.db, targets(), false)).toBe(false);
    const before = index.db.changeMark();
    const written = staleTextFiles(index.db).map((r) => r.fid);
    expect(written).toHaveLength(1);
    await indexStaleText(index.db, undefined, { tools: false });
    const asked: string[] = [];
    const q = index.db.q.bind(index.db);
    index.db.q = (text: string) => (asked.push(text), q(text));
    textStatesWritten(index.db, before, written);
    expect(caughtUp(index.db, targets(), false)).toBe(true);
    const covered = coverageOf(index.db, targets());
    // One row read back, not every file's.
    expect(asked.filter((t) => /FROM files$/.test(t))).toEqual([]);
    expect(asked.filter((t) => /FROM files WHERE fid = \?$/.test(t))).toHaveLength(1);
    // What a connection that reads them all says.
    const other = openStoreIndex(store, (m) => expect.fail(m), { path: index.db.path })!;
    expect({ ...coverageOf(other.db, targets()), gen: "" }).toEqual({ ...covered, gen: "" });
    other.close();
    index.close();
  });

  it("reads every file's again when another connection wrote since", async () => {
    const store = copyStore(PI_STORE);
    settle(store);
    const path = join(makeTmpDir(), "index.sqlite");
    const index = openStoreIndex(store, (m) => expect.fail(m), { path })!;
    const { sessions } = await scanStore(store, {}, { cache: index.scans });
    const targets = targetsOf(sessions);
    expect(caughtUp(index.db, targets, false)).toBe(false);
    const before = index.db.changeMark();
    // Another process indexes the text meanwhile.
    const other = openStoreIndex(store, (m) => expect.fail(m), { path })!;
    await indexStaleText(other.db, undefined, { tools: false });
    other.close();
    textStatesWritten(index.db, before, []);
    expect(caughtUp(index.db, targets, false)).toBe(true);
    index.close();
  });
});

describe("readTextStates (a search got ready as the query is typed)", () => {
  it("reads a slice at a time, a turn of the event loop before each and none while keys wait, and keeps them for the search", async () => {
    const { index, sessions } = await indexedCopy();
    expect(sessions.length).toBeGreaterThan(4);
    const reads: number[] = [];
    const q = index.db.q.bind(index.db);
    index.db.q = (text: string) => {
      const st = q(text);
      if (!/FROM files/.test(text)) return st;
      return new Proxy(st, {
        get: (o, k) => (k === "all" ? (...a: never[]) => (reads.push(Date.now()), o.all(...a)) : Reflect.get(o, k)),
      });
    };
    // Keys waiting at first: nothing read until they are handled, then two rows a turn.
    let waiting = 3;
    const warm = readTextStates(index.db, () => waiting-- > 0, 2);
    expect(reads).toEqual([]);
    await warm;
    expect(reads.length).toBe(Math.floor(sessions.length / 2) + 1);
    expect(waiting).toBeLessThan(0);
    // The search after reads none of them again.
    reads.length = 0;
    const targets = targetsOf(sessions);
    expect(caughtUp(index.db, targets, false)).toBe(true);
    expect(reads).toEqual([]);
    index.close();
  });

  it("leaves a search that comes while keys still wait only the rows it has not read yet", async () => {
    const { index, sessions } = await indexedCopy();
    const asked: unknown[] = [];
    const q = index.db.q.bind(index.db);
    index.db.q = (text: string) => {
      const st = q(text);
      if (!/FROM files/.test(text)) return st;
      return new Proxy(st, {
        get: (o, k) => (k === "all" ? (...a: never[]) => (asked.push(a), o.all(...a)) : Reflect.get(o, k)),
      });
    };
    const targets = targetsOf(sessions);
    let keys = false;
    const warm = readTextStates(index.db, () => keys, 4);
    // Two slices read, then keys wait: the search reads the rest, from the last fid read on.
    while (asked.length < 2) await new Promise((r) => setImmediate(r));
    keys = true;
    await new Promise((r) => setTimeout(r, 30));
    expect(asked).toHaveLength(2);
    const after = (asked[1] as number[])[0];
    const c = coverageOf(index.db, targets)!;
    expect(asked).toHaveLength(3);
    expect((asked[2] as number[])[0]).toBeGreaterThan(after);
    expect(c.fid.every((f) => f >= 0)).toBe(true);
    keys = false;
    await warm;
    expect(asked).toHaveLength(3);
    index.close();
  });
});

describe("planWithIndex", () => {
  it("checks every file the same way whether it names candidate lines for all files at once or for each as checked", async () => {
    let hits = 0;
    for (const fixture of [PI_STORE, join(FIXTURES, "pi-1.5.2", "agent", "sessions")]) {
      const store = copyStore(fixture);
      const index = openStoreIndex(store, (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
      const { sessions } = await scanStore(store, {}, { cache: index.scans });
      await indexStaleText(index.db);
      // Read whole, by the plan as by the search: the file says (an append the index has not read).
      const grown = sessions.find((s) => readFileSync(s.path).at(-1) === 0x0a)!;
      appendFileSync(
        grown.path,
        '{"type":"custom","id":"g1","parentId":null,"timestamp":"2026-11-26T12:00:00.000Z"}\n',
      );
      const targets = sessions.map((s) => ({
        path: s.path,
        bytes: statSync(s.path).size,
        mtimeMs: statSync(s.path).mtimeMs,
      }));
      const words = ["the", "you", "file", "hello world", "read the", "tool", "zzqx-none", "the zzqx-none"];
      for (const q of words)
        for (const tools of [false, true]) {
          const plan = (o: {
            lazyAbove: number;
            lazyMisses?: number;
            runGap?: number;
            rangesPerList?: number;
            listUpTo?: number;
          }) => planWithIndex(index.db, parseQuery(q), tools, undefined, o)!;
          const exact = plan({ lazyAbove: Infinity });
          const n = exact.mayHold(targets[0]).length;
          // Every term needed; none (its fields hold them all); the first only.
          const needs = [undefined, Array<boolean>(n).fill(false), [true, ...Array<boolean>(n - 1).fill(false)]];
          // Every file checked, lazily; lazily until two files had no candidate line; and with
          // a file's lines asked of the index a line at a time, or all of them listed (runGap 0:
          // a run per line, and a file of more than 32 lines takes every candidate line).
          const lazies = [
            plan({ lazyAbove: 0 }),
            plan({ lazyAbove: 0, listUpTo: 0 }),
            plan({ lazyAbove: 0, listUpTo: 0, lazyMisses: 2 }),
            plan({ lazyAbove: 0, listUpTo: 0, runGap: 0 }),
            plan({ lazyAbove: 0, listUpTo: 0, rangesPerList: 2 }),
          ];
          for (const lazy of lazies)
            for (const t of targets)
              for (const need of needs) {
                const want = await exact.check(t, need);
                // A term the index rules out is never held.
                for (const p of [exact, lazy])
                  p.mayHold(t).forEach((may, i) => may || expect(want?.held[i] ?? false).toBe(false));
                expect({ q, tools, need, path: t.path, got: await lazy.check(t, need) }).toEqual({
                  q,
                  tools,
                  need,
                  path: t.path,
                  got: want,
                });
                if (want) hits++;
              }
        }
      index.close();
    }
    expect(hits).toBeGreaterThan(50);
  });

  it("asks the index for a common word's lines in the files it checks, not for every line that holds it", async () => {
    const { index, sessions } = await indexedCopy();
    const asked: string[] = [];
    const q = index.db.q.bind(index.db);
    index.db.q = (text: string) => (asked.push(text), q(text));
    const plan = planWithIndex(index.db, parseQuery("parser"), false, undefined, { lazyAbove: 0, listUpTo: 0 })!;
    const targets = targetsOf(sessions);
    let held = 0;
    for (const t of targets) if (await plan.check(t)) held++;
    expect(held).toBeGreaterThan(0);
    // Counted up to the bound, then a range of rids per file checked: no list of every line.
    expect(asked.filter((t) => /MATCH/.test(t) && !/LIMIT|rowid BETWEEN/.test(t))).toEqual([]);
    expect(asked.filter((t) => /rowid BETWEEN/.test(t)).length).toBeGreaterThan(0);
    // Past a few files asked so, every line holding it is listed once, for the files after.
    asked.length = 0;
    const many = planWithIndex(index.db, parseQuery("parser"), false, undefined, {
      lazyAbove: 0,
      listUpTo: 0,
      rangesPerList: 2,
    })!;
    for (const t of targets) await many.check(t);
    expect(asked.filter((t) => /rowid BETWEEN/.test(t))).toHaveLength(2);
    expect(asked.filter((t) => /group_concat\(rowid\)/.test(t))).toHaveLength(1);
    // A word in a few thousand lines or fewer: listed at once, no file asked by range.
    asked.length = 0;
    const few = planWithIndex(index.db, parseQuery("parser"), false, undefined, { lazyAbove: 0 })!;
    for (const t of targets) await few.check(t);
    expect(asked.filter((t) => /rowid BETWEEN/.test(t))).toEqual([]);
    expect(asked.filter((t) => /group_concat\(rowid\)/.test(t))).toHaveLength(1);
    index.close();
  });

  it("counts the range queries it asks against a budget (per term and table), not the files, and asks a table only its own lines' runs", async () => {
    const store = copyStore(PI_STORE);
    settle(store);
    const index = openStoreIndex(store, (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
    const { sessions } = await scanStore(store, {}, { cache: index.scans });
    await indexStaleText(index.db);
    const targets = targetsOf(sessions);
    const ranges: Array<{ table: string; first: bigint; last: bigint }> = [];
    let listed = 0;
    const q = index.db.q.bind(index.db);
    index.db.q = (text: string) => {
      const st = q(text);
      if (/group_concat\(rowid\)/.test(text)) listed++;
      const table = /FROM (\w+) WHERE \1 MATCH \? AND rowid BETWEEN/.exec(text)?.[1];
      if (!table) return st;
      return new Proxy(st, {
        get(target, key) {
          if (key === "all")
            return (...args: unknown[]) => {
              ranges.push({ table, first: args[1] as bigint, last: args[2] as bigint });
              return target.all(...(args as []));
            };
          const v = Reflect.get(target, key, target) as unknown;
          return typeof v === "function" ? v.bind(target) : v;
        },
      });
    };
    const toolOf = (rid: bigint) => (q("SELECT tool FROM lines WHERE rid = ?").get(rid) as { tool: number }).tool;
    for (const [text, tools] of [
      ["parser", false],
      ["parser", true],
      ["file", true],
      ["build parser", true],
    ] as const) {
      const terms = parseQuery(text).terms.length;
      const exact = planWithIndex(index.db, parseQuery(text), tools, undefined, { lazyAbove: Infinity })!;
      const want: unknown[] = [];
      for (const t of targets) want.push(await exact.check(t));
      const lists = terms * (tools ? 2 : 1);
      for (const [runGap, rangesPerList] of [
        [0, 3],
        [2048, 3],
        [2048, 64],
      ]) {
        ranges.length = 0;
        listed = 0;
        const lazy = planWithIndex(index.db, parseQuery(text), tools, undefined, {
          lazyAbove: 0,
          listUpTo: 0,
          runGap,
          rangesPerList,
        })!;
        for (const [i, t] of targets.entries()) expect(await lazy.check(t)).toEqual(want[i]);
        // Within the budget (a run per line with runGap 0: a file of many lines spends it at once),
        // then every candidate line listed once.
        expect(ranges.length).toBeLessThanOrEqual(rangesPerList * terms * (tools ? 2 : 1));
        expect(listed).toBeLessThanOrEqual(lists);
        if (rangesPerList === 3) expect(listed).toBe(lists);
        // A run of tool lines asked of the tools table alone, of others of chat alone.
        for (const r of ranges) {
          expect([toolOf(r.first), toolOf(r.last)]).toEqual(r.table === "tools" ? [1, 1] : [0, 0]);
        }
      }
    }
    index.close();
  });

  it("binds a file's range of rids as integers (as REAL, FTS5 would read the grams' whole lists)", async () => {
    const { index, sessions } = await indexedCopy();
    const bound: unknown[][] = [];
    const q = index.db.q.bind(index.db);
    index.db.q = (text: string) => {
      const st = q(text);
      if (!/rowid BETWEEN/.test(text)) return st;
      return new Proxy(st, {
        get(target, key) {
          if (key === "all") return (...args: unknown[]) => (bound.push(args.slice(1)), target.all(...(args as [])));
          const v = Reflect.get(target, key, target) as unknown;
          return typeof v === "function" ? v.bind(target) : v;
        },
      });
    };
    const plan = planWithIndex(index.db, parseQuery("parser"), false, undefined, { lazyAbove: 0, listUpTo: 0 })!;
    for (const s of sessions) {
      const st = statSync(s.path);
      await plan.check({ path: s.path, bytes: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs });
    }
    expect(bound.length).toBeGreaterThan(0);
    for (const args of bound) expect(args.map((a) => typeof a)).toEqual(["bigint", "bigint"]);
    index.close();
  });

  it("reads a checked file's lines and which hold a term of one state of the index, whatever another process commits between", async () => {
    // A range a file, and every line listed at once.
    for (const listUpTo of [0, undefined]) {
      const copy = await indexedCopy();
      const { index } = copy;
      const held = await exactParserHits(copy);
      expect(held.length).toBeGreaterThan(1);
      // Another connection drops every FTS row (as dropOrphanText does) just after a file's lines were read.
      const other = new (loadSqlite().DatabaseSync)(index.db.path, { timeout: 3000 });
      const q = index.db.q.bind(index.db);
      let dropped = false;
      let failing = false;
      index.db.q = (text: string) => {
        if (/rowid BETWEEN|group_concat\(rowid\)/.test(text)) {
          if (failing) throw new Error("the index failed");
          if (!dropped)
            other.exec("INSERT INTO chat(chat) VALUES('delete-all'); INSERT INTO tools(tools) VALUES('delete-all');");
          dropped = true;
        }
        return q(text);
      };
      // The index failing under a check: the file read whole, and no transaction left open.
      failing = true;
      const failed = planWithIndex(index.db, parseQuery("parser"), false, undefined, { lazyAbove: 0, listUpTo })!;
      expect(await failed.check(held[1][0])).toMatchObject({ path: held[1][0].path, fromIndex: false });
      expect(index.db.sql.isTransaction).toBe(false);
      failing = false;
      const lazy = planWithIndex(index.db, parseQuery("parser"), false, undefined, { lazyAbove: 0, listUpTo })!;
      expect(await lazy.check(held[0][0])).toEqual(held[0][1]);
      expect(dropped).toBe(true);
      expect(index.db.sql.isTransaction).toBe(false);
      other.close();
      index.close();
    }
  });

  it("lists every candidate line again in a checked file's read when another process re-indexed a file since they were listed", async () => {
    // Every line listed at once (a word in few lines), and once the range budget is spent (none here).
    for (const opts of [{}, { listUpTo: 0, rangesPerList: 0 }]) {
      const copy = await indexedCopy();
      const { store, index } = copy;
      const held = await exactParserHits(copy);
      expect(held.length).toBeGreaterThan(2);
      const asked: string[] = [];
      const listed = () => asked.filter((t) => /group_concat\(rowid\)/.test(t)).length;
      const q = index.db.q.bind(index.db);
      index.db.q = (text: string) => (asked.push(text), q(text));
      const lazy = planWithIndex(index.db, parseQuery("parser"), false, undefined, { lazyAbove: 0, ...opts })!;
      expect(await lazy.check(held[0][0])).toEqual(held[0][1]);
      expect(listed()).toBe(1);
      // Another process forgets the second file's text and indexes it again: its lines get new rids.
      const other = openStoreIndex(store, (m) => expect.fail(m), { path: index.db.path })!;
      const { fid } = other.db.q("SELECT fid FROM files WHERE path = ?").get(held[1][0].path) as { fid: number };
      const rids = () => other.db.q("SELECT rid FROM lines WHERE fid = ? ORDER BY rid").all(fid);
      const before = rids();
      other.db.transaction(() => {
        forgetText(other.db, fid);
        other.db.q("UPDATE files SET text_size = NULL WHERE fid = ?").run(fid);
      });
      await indexStaleText(other.db, undefined, { tools: false });
      expect(rids()).toHaveLength(before.length);
      expect(rids()).not.toEqual(before);
      other.close();
      expect(await lazy.check(held[1][0])).toEqual(held[1][1]);
      expect(listed()).toBe(2);
      // Nothing changed since: the list is used as it is.
      expect(await lazy.check(held[2][0])).toEqual(held[2][1]);
      expect(listed()).toBe(2);
      index.close();
    }
  });

  it("finds a file's candidate lines indexed at two times (an append indexed after other files) as the exact plan does", async () => {
    const { store, index, sessions } = await indexedCopy();
    // Other files indexed between the file's first lines and its appended ones.
    const [first, ...rest] = sessions;
    if (!readFileSync(first.path, "utf8").endsWith("\n")) appendFileSync(first.path, "\n");
    appendFileSync(first.path, userLine("a1", "a zebra-appended parser"));
    appendFileSync(rest[0].path, userLine("b1", "a zebra-appended word elsewhere"));
    settle(store);
    await scanStore(store, {}, { cache: index.scans });
    await indexStaleText(index.db, undefined, { tools: false });
    const targets = targetsOf(sessions);
    let found = 0;
    for (const text of ["zebra-appended", "parser", "file", "zebra-appended parser"]) {
      const exact = planWithIndex(index.db, parseQuery(text), false, undefined, { lazyAbove: Infinity })!;
      for (const runGap of [0, 1, 2048]) {
        const lazy = planWithIndex(index.db, parseQuery(text), false, undefined, {
          lazyAbove: 0,
          listUpTo: 0,
          runGap,
        })!;
        for (const t of targets) {
          const want = await exact.check(t);
          if (want && text === "zebra-appended" && t.path === first.path) found++;
          expect({ text, runGap, path: t.path, got: await lazy.check(t) }).toEqual({
            text,
            runGap,
            path: t.path,
            got: want,
          });
        }
      }
    }
    expect(found).toBe(3);
    index.close();
  });
});

describe("a file that cannot be read when checked", () => {
  it("is no match, told to onUnreadable: covered (its candidate lines) or read whole, by the plan and by the search", async () => {
    const { index, sessions } = await indexedCopy();
    const targetOf = (path: string, grow = 0) => {
      const st = statSync(path);
      return { path, bytes: st.size + grow, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
    };
    const targets = sessions.map((s) => targetOf(s.path));
    const query = parseQuery("parser");
    const hits: string[] = [];
    const fromIndex: string[] = [];
    await searchWithIndex(index.db, targets, query, {
      includeTools: false,
      onMatch: (h) => (hits.push(h.path), h.fromIndex && fromIndex.push(h.path)),
    });
    // Gone since the scan (as EIO or EMFILE would fail it): one the index covers, and one it
    // does not (its size not the index's: read whole).
    const covered = fromIndex[0];
    const whole = hits.find((h) => h !== covered)!;
    expect([covered, whole].every(Boolean)).toBe(true);
    const of = targets.map((t) => (t.path === whole ? targetOf(whole, 1) : t));
    rmSync(covered);
    rmSync(whole);
    const told: string[] = [];
    const onUnreadable = (path: string) => told.push(path);
    const found: string[] = [];
    await searchWithIndex(index.db, of, query, {
      includeTools: false,
      onMatch: (h) => found.push(h.path),
      onUnreadable,
    });
    expect(found.sort()).toEqual(hits.filter((h) => h !== covered && h !== whole).sort());
    expect(told.sort()).toEqual([covered, whole].sort());
    for (const lazyAbove of [0, Infinity]) {
      told.length = 0;
      const plan = planWithIndex(index.db, query, false, undefined, { lazyAbove, onUnreadable })!;
      for (const path of [covered, whole]) expect(await plan.check(of.find((t) => t.path === path)!)).toBeNull();
      expect(told).toEqual([covered, whole]);
    }
    index.close();
  });
});

describe("searchWithIndex asked again of the same targets", () => {
  it("looks at the files the index names and those it does not cover, not at every target, and finds what a first search finds", async () => {
    const { index, sessions } = await indexedCopy();
    let reads = 0;
    const targets = sessions.map((s) => {
      const st = statSync(s.path);
      const t = { path: s.path, bytes: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
      return Object.defineProperty(t, "path", { get: () => (reads++, s.path) });
    });
    // pi wrote to one since: the index no longer covers it, it is read.
    const changed = targets.length - 1;
    targets[changed] = { ...targets[changed], path: sessions[changed].path, bytes: targets[changed].bytes + 1 };
    const found = async (q: string, of = targets, includeTools = false, known?: KnownCoverage) => {
      const paths: string[] = [];
      const r = await searchWithIndex(index.db, of, parseQuery(q), {
        includeTools,
        onMatch: (h) => paths.push(h.path),
        need: () => undefined,
        known,
      });
      return { paths: paths.sort(), searched: r.searched };
    };
    // Without the index: every file read.
    const read = async (q: string, includeTools: boolean) => {
      const paths: string[] = [];
      const r = await searchStore(
        sessions.map((s) => s.path),
        parseQuery(q),
        { includeTools, onMatch: (p) => paths.push(p) },
      );
      return { paths: paths.sort(), searched: r.searched };
    };
    // Each target looked up by its path (the search told what the index covers, as a command keeps it).
    const byTarget = (): KnownCoverage => {
      const c = coverageOf(index.db, targets)!;
      const at = new Map(targets.map((t, k) => [t, k]));
      return (t, tools) => {
        const k = at.get(t)!;
        return c.fid[k] >= 0 && (!tools || c.tools[k] === 1) ? c.fid[k] : undefined;
      };
    };
    await found("zebra-never-said");
    reads = 0;
    expect(await found("zebra-never-said")).toEqual({ paths: [], searched: targets.length });
    expect(reads).toBe(0);
    // The same targets made again (the browser lets them go between queries): the same coverage.
    expect(await found("zebra-never-said", targets.slice())).toEqual({ paths: [], searched: targets.length });
    expect(reads).toBe(0);
    const known = byTarget();
    for (const tools of [false, true])
      for (const q of ["zebra-never-said", "parser", "gamma delta", "naive", "会话 build", "fix", "tool"]) {
        const got = await found(q, targets, tools);
        expect(got, `${q} ${tools}`).toEqual(await read(q, tools));
        expect(got, `${q} ${tools}`).toEqual(await found(q, targets, tools, known));
      }
    const parser = await found("parser");
    expect(parser.paths.length).toBeGreaterThan(1);
    expect(parser.paths.length).toBeLessThan(targets.length);
    index.close();
  });

  it("does not hold the targets once their caller lets them go (a store's superseded sessions)", async () => {
    const { index, sessions } = await indexedCopy();
    const made = () => targetsOf(sessions);
    const search = (targets: SearchTarget[]) =>
      searchWithIndex(index.db, targets, parseQuery("zebra-never-said"), {
        includeTools: false,
        onMatch: () => {},
        need: () => undefined,
      });
    let targets: SearchTarget[] | undefined = made();
    const ref = new WeakRef(targets);
    await search(targets);
    targets = undefined;
    await new Promise((r) => setImmediate(r));
    collectGarbage();
    expect(ref.deref()).toBeUndefined();
    // The next targets are looked up again, and found the same.
    expect((await search(made())).searched).toBe(sessions.length);
    index.close();
  });
});

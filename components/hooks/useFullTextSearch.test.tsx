import { Text } from "ink";
import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as fieldBytes from "../../src/browser/list/fieldBytes.js";
import { key as mk } from "../../test/helpers/keys.js";
import { cleanupInk, renderInk, settle } from "../../test/helpers/ink.js";
import { makeSummary } from "../../test/helpers/sessions.js";
import { reduce, scanDone, scanSummaries } from "../../test/helpers/update.js";
import { type AppAction, type AppState, initialState } from "../../src/browser/app/appReducer.js";
import type { FullTextFn } from "./useFullTextSearch.js";
import { searchTargets, useFullTextSearch } from "./useFullTextSearch.js";

afterEach(cleanupInk);

// Every field text made counted (the list's words are matched against it: derive.ts).
vi.mock("../../src/browser/list/fieldBytes.js", async (actual) => {
  const real = await actual<typeof import("../../src/browser/list/fieldBytes.js")>();
  return { ...real, bytesText: vi.fn(real.bytesText) };
});

const CWD = "/home/u/proj";
const sessions = [0, 1, 2].map((i) => makeSummary({ path: `/s/${i}.jsonl`, cwd: CWD, firstMessage: `session ${i}` }));

/** The browser's state with "tokenizer" typed into the search. */
function searching(): AppState {
  let s: AppState = reduce(initialState({ launchCwd: CWD, all: true }), scanSummaries(sessions), {
    type: "command",
    command: "search.start",
  });
  for (const ch of "tokenizer") s = reduce(s, { type: "key", input: ch, key: mk() });
  return s;
}

function Harness(p: { s: AppState; search: FullTextFn; log: string[]; throttleMs: number }) {
  useFullTextSearch(p.s, p.search, (a: AppAction) => p.log.push(a.type), 0, p.throttleMs);
  return <Text>x</Text>;
}

/** The hook following `searching()`'s state live, its actions kept in `actions`, its first search settled. */
async function liveSearch(search: FullTextFn, actions: AppAction[]) {
  // Stable, as React's dispatch is.
  const dispatch = (a: AppAction) => void actions.push(a);
  function Live(p: { s: AppState }) {
    useFullTextSearch(p.s, search, dispatch, 0, 0);
    return <Text>x</Text>;
  }
  const s = searching();
  const r = await renderInk(<Live s={s} />);
  await act(async () => settle(60));
  return {
    /** Session 1 grown as pi appending to it does, the store's change reduced and shown, settled: the session as now. */
    async growSession1() {
      const grown = { ...sessions[1], bytes: sessions[1].bytes + 100, mtimeMs: sessions[1].mtimeMs + 1000 };
      const after = reduce(s, { type: "store.changes", updated: [grown], removed: [], diagnostics: [] });
      r.rerender(<Live s={after} />);
      await act(async () => settle(60));
      return grown;
    },
  };
}

/** The key the search's start said. */
const startKey = (actions: AppAction[]) => (actions.find((a) => a.type === "fulltext.start") as { key: string }).key;

/**
 * A component running the hook with a debounce no test here outlasts (no search started) and
 * the throttle at 50 ms, keys pending and queued as `keysPending` and `keysQueued` say (the
 * hook's defaults if not given).
 */
function warmHook(search: FullTextFn, keysPending?: () => boolean, keysQueued?: () => boolean) {
  return function Warm(p: { s: AppState }) {
    useFullTextSearch(p.s, search, () => {}, 1000, 50, keysPending, keysQueued);
    return <Text>x</Text>;
  };
}

/**
 * The hook on a complete list of `sessions`, its search bar closed, keys pending as
 * `keysPending` says: the field text's maker (mocked, counting), a component running the hook,
 * that list and its render, and how many field texts were made so far.
 */
async function warmOnList(keysPending?: () => boolean) {
  const made = vi.mocked(fieldBytes.bytesText);
  const search: FullTextFn = async (targets) => ({ searched: targets.length, matched: 0, aborted: false });
  const Warm = warmHook(search, keysPending);
  const listed = reduce(initialState({ launchCwd: CWD, all: true }), scanSummaries(sessions), scanDone());
  const r = await renderInk(<Warm s={listed} />);
  await act(async () => settle(80));
  // The hook shown state `s`, then `waitMs` let pass (the warm-up waits 40 ms).
  const show = async (s: AppState, waitMs = 0) => {
    await act(async () => r.rerender(<Warm s={s} />));
    if (waitMs > 0) await act(async () => settle(waitMs));
  };
  return { made, listed, show, before: made.mock.calls.length };
}

describe("useFullTextSearch", () => {
  it("says a search's start with its results when it ends within the throttle: one state change, one frame", async () => {
    const log: string[] = [];
    const search: FullTextFn = async (targets, _q, opts) => {
      log.push("search begins");
      opts.onProgress?.(1);
      opts.onMatch(targets[0].path, "…the tokenizer", [true]);
      await new Promise((r) => setTimeout(r, 5));
      log.push("search ends");
      return { searched: targets.length, matched: 1, aborted: false };
    };
    // A throttle no loaded machine outlasts with a 5 ms search.
    await renderInk(<Harness s={searching()} search={search} log={log} throttleMs={1000} />);
    await act(async () => settle(60));
    expect(log).toEqual(["search begins", "search ends", "fulltext.start", "fulltext.hits", "fulltext.done"]);
  });

  it("takes in hits reported together as one batch, not the first alone once the throttle has passed", async () => {
    const actions: AppAction[] = [];
    const search: FullTextFn = async (targets, _q, opts) => {
      await new Promise((r) => setTimeout(r, 80)); // past the throttle
      // The early answer: the hits checked first and the rest named, in one go.
      for (const t of targets) opts.onMatch(t.path, "…the tokenizer", [true]);
      await new Promise((r) => setTimeout(r, 200));
      return { searched: targets.length, matched: targets.length, aborted: false };
    };
    function Batches(p: { s: AppState }) {
      useFullTextSearch(p.s, search, (a: AppAction) => void actions.push(a), 0, 20);
      return <Text>x</Text>;
    }
    await renderInk(<Batches s={searching()} />);
    await act(async () => settle(400));
    const batches = actions.flatMap((a) => (a.type === "fulltext.hits" ? [a.hits.length] : []));
    expect(batches).toEqual([3, 0]); // the hits, then the end's (empty) flush
  });

  it("keeps one array of the words held per set of words, not one per hit", async () => {
    const actions: AppAction[] = [];
    const search: FullTextFn = async (targets, _q, opts) => {
      targets.forEach((t, i) => opts.onMatch(t.path, "…the tokenizer", i === 2 ? [true, false] : [true, true]));
      return { searched: targets.length, matched: targets.length, aborted: false };
    };
    function Held(p: { s: AppState }) {
      useFullTextSearch(p.s, search, (a: AppAction) => void actions.push(a), 0, 0);
      return <Text>x</Text>;
    }
    await renderInk(<Held s={searching()} />);
    await act(async () => settle(60));
    const hits = actions.flatMap((a) => (a.type === "fulltext.hits" ? a.hits : []));
    expect(hits.map(([, h]) => h.held)).toEqual([
      [true, true],
      [true, true],
      [true, false],
    ]);
    expect(hits[1][1].held).toBe(hits[0][1].held);
    expect(hits[2][1].held).not.toBe(hits[0][1].held);
  });

  it("makes nothing per hit to find the copy of the words it holds (36,000 hits at 50,000 sessions)", async () => {
    let made = 0;
    const search: FullTextFn = async (targets, _q, opts) => {
      // Every array and string made while the hits are handed on: none per hit.
      const join = vi.spyOn(Array.prototype, "join");
      const map = vi.spyOn(Array.prototype, "map");
      try {
        for (let i = 0; i < 100; i++) opts.onMatch(targets[i % targets.length].path, "…", [true, i % 2 === 0]);
        made = join.mock.calls.length + map.mock.calls.length;
      } finally {
        join.mockRestore();
        map.mockRestore();
      }
      return { searched: targets.length, matched: 100, aborted: false };
    };
    function Held(p: { s: AppState }) {
      useFullTextSearch(p.s, search, () => {}, 0, 0);
      return <Text>x</Text>;
    }
    await renderInk(<Held s={searching()} />);
    await act(async () => settle(60));
    expect(made).toBe(0);
  });

  it("says it, with what was found so far, once the throttle has passed when it takes longer", async () => {
    const log: string[] = [];
    const search: FullTextFn = async (targets, _q, opts) => {
      log.push("search begins");
      opts.onProgress?.(1);
      await new Promise((r) => setTimeout(r, 400));
      log.push("search ends");
      return { searched: targets.length, matched: 0, aborted: false };
    };
    await renderInk(<Harness s={searching()} search={search} log={log} throttleMs={50} />);
    await act(async () => settle(500));
    expect(log).toEqual([
      "search begins",
      "fulltext.start",
      "fulltext.hits",
      "search ends",
      "fulltext.hits",
      "fulltext.done",
    ]);
  });

  it("leaves the search four times as long as the last batch of hits took to take in (ranking 50,000 sessions again)", async () => {
    const spans: Array<[number, number]> = [];
    let running = true;
    const search: FullTextFn = async (targets, _q, opts) => {
      // A hit every 5 ms for 700 ms.
      for (let i = 0; i < 140; i++) {
        opts.onMatch(targets[i % targets.length].path, "…the tokenizer", [true]);
        await new Promise((r) => setTimeout(r, 5));
      }
      running = false;
      return { searched: targets.length, matched: 140, aborted: false };
    };
    // Each batch of hits takes 40 ms to take in (the reducer ranks every session again).
    const dispatch = (a: AppAction) => {
      if (a.type !== "fulltext.hits" || !running) return;
      const t0 = Date.now();
      while (Date.now() - t0 < 40);
      spans.push([t0, Date.now()]);
    };
    function Slow(p: { s: AppState }) {
      useFullTextSearch(p.s, search, dispatch, 0, 50);
      return <Text>x</Text>;
    }
    await renderInk(<Slow s={searching()} />);
    await act(async () => settle(900));
    expect(spans.length).toBeGreaterThan(1);
    // With a batch every 50 ms, the search had 10 ms of each 50.
    for (let i = 1; i < spans.length; i++) {
      const [s0, e0] = spans[i - 1];
      expect(spans[i][0] - e0).toBeGreaterThanOrEqual(4 * (e0 - s0) - 2);
    }
  });

  it("asks for hits that can be taken back (answered as the index names them), the list's order first, and passes on what is taken back", async () => {
    const seen: { place: boolean }[] = [];
    const search: FullTextFn = async (targets, _q, opts) => {
      seen.push({ place: typeof opts.place === "function" });
      opts.onMatch(targets[0].path, "…the tokenizer", [true]);
      opts.onMatch(targets[1].path, "…named", [true], true);
      opts.onMatch(targets[2].path, "…named too", [true], true);
      opts.onChecking?.(2);
      opts.onProgress?.(targets.length);
      await new Promise((r) => setTimeout(r, 5));
      opts.onMiss?.(targets[1].path, { bytes: targets[1].bytes, mtimeMs: targets[1].mtimeMs });
      opts.onConfirmed?.(targets[2].path);
      opts.onChecking?.(0);
      return { searched: targets.length, matched: 1, aborted: false };
    };
    const actions: AppAction[] = [];
    const dispatch = (a: AppAction) => void actions.push(a);
    function Taker(p: { s: AppState }) {
      useFullTextSearch(p.s, search, dispatch, 0, 0);
      return <Text>x</Text>;
    }
    await renderInk(<Taker s={searching()} />);
    await act(async () => settle(60));
    expect(seen).toEqual([{ place: true }]);
    const hits = actions.filter((a) => a.type === "fulltext.hits");
    const paths = hits.flatMap((a) => a.hits.map(([p]) => p));
    expect(paths).toHaveLength(3);
    // The named are said to be unchecked (an action on their rows waits for their files), the checked ones confirmed.
    expect(hits.flatMap((a) => a.unchecked ?? [])).toEqual(paths.slice(1));
    expect(hits.flatMap((a) => a.confirmed ?? [])).toEqual([paths[0], paths[2]]);
    // Sent as the check saw the file: the reducer ignores it once pi has written to it since.
    const missed = searching().sessions.get(hits.flatMap((a) => a.drop ?? [])[0]?.path ?? "")!;
    expect(hits.flatMap((a) => a.drop ?? [])).toEqual([
      { path: missed.path, bytes: missed.bytes, mtimeMs: missed.mtimeMs },
    ]);
    expect(hits.some((a) => a.checking === 2)).toBe(true);
    expect(hits.at(-1)!.checking).toBe(0);
  });

  it("makes a search's targets once per sessions and scope (a search starts at each pause in typing)", () => {
    const s = searching();
    const t = searchTargets(s);
    expect(t.map((x) => x.path).sort()).toEqual(sessions.map((x) => x.path).sort());
    expect(searchTargets({ ...s })).toBe(t);
    expect(searchTargets({ ...s, scope: "cwd" })).not.toBe(t);
    const more = reduce(s, scanSummaries([makeSummary({ path: "/s/9.jsonl", cwd: CWD, firstMessage: "x" })]));
    expect(searchTargets(more)).toHaveLength(4);
  });

  it("keeps no targets once no query calls for a search", async () => {
    const s = searching();
    const search: FullTextFn = async (targets) => ({ searched: targets.length, matched: 0, aborted: false });
    function Keep(p: { s: AppState }) {
      useFullTextSearch(p.s, search, () => {}, 0, 0);
      return <Text>x</Text>;
    }
    const r = await renderInk(<Keep s={s} />);
    await act(async () => settle(20));
    const t = searchTargets(s);
    expect(searchTargets(s)).toBe(t);
    const cleared = reduce(s, { type: "command", command: "app.back" });
    expect(cleared.search.value).toBe("");
    await act(async () => r.rerender(<Keep s={cleared} />));
    expect(searchTargets(s)).not.toBe(t);
  });

  it("gets the search ready (warm) once the search bar is open and the list complete, not before", async () => {
    let warmed = 0;
    const search: FullTextFn = async (targets) => ({ searched: targets.length, matched: 0, aborted: false });
    search.warm = () => void warmed++;
    const Warm = warmHook(search);
    const scanning = reduce(initialState({ launchCwd: CWD, all: true }), scanSummaries(sessions));
    const r = await renderInk(<Warm s={reduce(scanning, { type: "command", command: "search.start" })} />);
    await act(async () => settle(20));
    expect(warmed).toBe(0); // the list not complete yet
    const listed = reduce(scanning, scanDone());
    await act(async () => r.rerender(<Warm s={listed} />));
    await act(async () => settle(20));
    expect(warmed).toBe(0); // the search bar not open
    await act(async () => r.rerender(<Warm s={reduce(listed, { type: "command", command: "search.start" })} />));
    await act(async () => settle(20));
    expect(warmed).toBe(1);
  });

  it("warms while a key is being handled and none waits behind it (keysQueued), not only once every key is handled", async () => {
    let busy: (() => boolean) | undefined;
    const search: FullTextFn = async (targets) => ({ searched: targets.length, matched: 0, aborted: false });
    search.warm = (b) => void (busy = b);
    let queued = false;
    const Warm = warmHook(
      search,
      () => true,
      () => queued,
    );
    const listed = reduce(initialState({ launchCwd: CWD, all: true }), scanSummaries(sessions), scanDone());
    await renderInk(<Warm s={reduce(listed, { type: "command", command: "search.start" })} />);
    await act(async () => settle(20));
    expect(busy?.()).toBe(false);
    queued = true;
    expect(busy?.()).toBe(true);
  });

  it("makes the list's field text as the search bar opens on a complete list, not at the first key typed", async () => {
    // Keys always pending (typed one after another, each a derive and a frame): made all the same.
    const { made, listed, show, before } = await warmOnList(() => true);
    let s = reduce(listed, { type: "command", command: "search.start" });
    await show(s);
    expect(made.mock.calls.length).toBe(before); // not before the bar's frame
    await act(async () => settle(80));
    expect(made.mock.calls.length).toBe(before + 1);
    // The words typed are matched against it: none made again.
    for (const ch of "sess") s = reduce(s, { type: "key", input: ch, key: mk() });
    await show(s, 20);
    expect(made.mock.calls.length).toBe(before + 1);
    expect(s.rows.length).toBe(3);
  });

  it("makes the list's field text once per opening of the search bar, not again as the store changes with no word typed", async () => {
    const { made, listed, show, before } = await warmOnList();
    let s = reduce(listed, { type: "command", command: "search.start" });
    await show(s, 80);
    expect(made.mock.calls.length).toBe(before + 1);
    // pi writes twice while the bar is open, nothing typed.
    for (const n of [1, 2]) {
      const grown = { ...sessions[1], bytes: sessions[1].bytes + 100 * n, mtimeMs: sessions[1].mtimeMs + 1000 * n };
      s = reduce(s, { type: "store.changes", updated: [grown], removed: [], diagnostics: [] });
      await show(s, 80);
    }
    expect(made.mock.calls.length).toBe(before + 1);
    // Closed and opened again: made again, of the list as it is now.
    s = reduce(s, { type: "command", command: "search.cancel" });
    await show(s);
    s = reduce(s, { type: "command", command: "search.start" });
    await show(s, 80);
    expect(made.mock.calls.length).toBe(before + 2);
  });

  it("lets the field text go when the search bar closes with nothing typed (made again at the next opening)", async () => {
    const { made, listed, show, before } = await warmOnList();
    const open = reduce(listed, { type: "command", command: "search.start" });
    await show(open, 80);
    expect(made.mock.calls.length).toBe(before + 1);
    await show(reduce(open, { type: "command", command: "search.cancel" }));
    await show(open, 80);
    expect(made.mock.calls.length).toBe(before + 2);
  });

  it("makes no field text when the search bar closes before the warm-up's wait is out", async () => {
    const { made, listed, show, before } = await warmOnList();
    const open = reduce(listed, { type: "command", command: "search.start" });
    await show(open);
    // Closed at once (well within the 40 ms the warm-up waits).
    const closed = reduce(open, { type: "command", command: "search.cancel" });
    expect(closed.stack.some((l) => l.kind === "search")).toBe(false);
    await show(closed, 80);
    expect(made.mock.calls.length).toBe(before);
  });

  it("a search that asks the next one to wait longer (its debounceMs) is not started again by asking", async () => {
    let calls = 0;
    const search: FullTextFn = async (targets) => {
      calls++;
      search.debounceMs = 40;
      return { searched: targets.length, matched: 0, aborted: false };
    };
    search.debounceMs = 0;
    const log: AppAction[] = [];
    const dispatch = (a: AppAction) => void log.push(a);
    function Adaptive(p: { s: AppState; n: number }) {
      useFullTextSearch(p.s, search, dispatch);
      return <Text>{p.n}</Text>;
    }
    const s = searching();
    const r = await renderInk(<Adaptive s={s} n={0} />);
    await act(async () => settle(60));
    // Drawn again (a key that changes no query, a frame of the scan): the same search.
    await act(async () => r.rerender(<Adaptive s={s} n={1} />));
    await act(async () => settle(100));
    expect(calls).toBe(1);
  });

  it("waits for keys read and not yet handed to the UI: a search started then would hold the thread they wait for", async () => {
    const started: number[] = [];
    const search: FullTextFn = async (targets) => {
      started.push(Date.now());
      return { searched: targets.length, matched: 0, aborted: false };
    };
    let pendingUntil = Date.now() + 150;
    const pending = () => Date.now() < pendingUntil;
    const dispatch = () => {};
    function Waiting(p: { s: AppState }) {
      useFullTextSearch(p.s, search, dispatch, 10, 50, pending);
      return <Text>x</Text>;
    }
    const t0 = Date.now();
    pendingUntil = t0 + 150;
    await renderInk(<Waiting s={searching()} />);
    await act(async () => settle(400));
    expect(started).toHaveLength(1);
    expect(started[0]).toBeGreaterThanOrEqual(pendingUntil);
  });

  it("a live query follows the store: a session pi appended to since is searched again, alone, and its hit added", async () => {
    const actions: AppAction[] = [];
    const calls: string[][] = [];
    let appended = false;
    const search: FullTextFn = async (targets, _q, opts) => {
      calls.push(targets.map((t) => t.path));
      // Session 1 holds the word only once pi has appended it.
      if (appended && targets.some((t) => t.path === "/s/1.jsonl"))
        opts.onMatch("/s/1.jsonl", "…the tokenizer", [true]);
      return { searched: targets.length, matched: 0, aborted: false };
    };
    const live = await liveSearch(search, actions);
    expect(calls).toEqual([["/s/0.jsonl", "/s/1.jsonl", "/s/2.jsonl"].sort()].map((c) => expect.arrayContaining(c)));
    appended = true;
    await live.growSession1();
    expect(calls.slice(1)).toEqual([["/s/1.jsonl"]]);
    const key = startKey(actions);
    expect(actions.at(-1)).toEqual({
      type: "fulltext.hits",
      key,
      hits: [["/s/1.jsonl", { snippet: "…the tokenizer", held: [true] }]],
      // Read as it is now: checked.
      confirmed: ["/s/1.jsonl"],
    });
  });

  it("a changed session searched again without the words loses its hit (one whose take-back was ignored as pi wrote stays listed otherwise)", async () => {
    const actions: AppAction[] = [];
    let rewritten = false;
    const search: FullTextFn = async (targets, _q, opts) => {
      // Session 1 named by the index at first; as pi rewrote it, it holds the word no more.
      if (!rewritten) opts.onMatch("/s/1.jsonl", "…named", [true], true);
      return { searched: targets.length, matched: 0, aborted: false };
    };
    const live = await liveSearch(search, actions);
    rewritten = true;
    const grown = await live.growSession1();
    const key = startKey(actions);
    expect(actions.at(-1)).toEqual({
      type: "fulltext.hits",
      key,
      hits: [],
      confirmed: [],
      // As the search saw it: the reducer ignores it should pi write again (searched again then).
      drop: [{ path: "/s/1.jsonl", bytes: grown.bytes, mtimeMs: grown.mtimeMs }],
    });
  });
});

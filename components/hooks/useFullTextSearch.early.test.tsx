import { Text } from "ink";
import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { key as mk } from "../../test/helpers/keys.js";
import { cleanupInk, renderInk, settle } from "../../test/helpers/ink.js";
import { parserStore } from "../../test/helpers/parser-store.js";
import { cleanupTmp } from "../../test/helpers/tmp-store.js";
import { reduce, scanDone, scanSummaries } from "../../test/helpers/update.js";
import { type AppAction, type AppState, initialState } from "../../src/browser/app/appReducer.js";
import { storeSearch } from "../../src/index/store-search.js";
import { scanStore } from "../../src/scan/scan-store.js";
import { useFullTextSearch } from "./useFullTextSearch.js";

afterEach(async () => {
  await cleanupInk();
  cleanupTmp();
});

type Hits = Extract<AppAction, { type: "fulltext.hits" }>;

describe("useFullTextSearch with the early answer (a word the index names in most sessions)", () => {
  // 50: as the browser; 1000: the answer comes well within the throttle of the search's start.
  it.each([50, 1000])(
    "takes the answer in as one batch, before any named hit is checked, with 6 files read whole (throttle %i ms)",
    async (throttleMs) => {
      // 12 sessions, 6 appended to since they were indexed (read whole, 4 at a time).
      const { store, env } = await parserStore(12, [1, 3, 5, 7, 9, 11]);
      const { sessions } = await scanStore(store);
      let s: AppState = reduce(
        initialState({ launchCwd: "/home/u/proj", all: true }),
        scanSummaries(sessions),
        scanDone(),
        { type: "command", command: "search.start" },
      );
      for (const ch of "parser") s = reduce(s, { type: "key", input: ch, key: mk() });
      // One session checked before the rest are named (the browser: a screenful and more).
      const search = storeSearch(store, env, { above: 0, checkFirst: 1 });
      const actions: AppAction[] = [];
      const dispatch = (a: AppAction) => void actions.push(a);
      function Early(p: { s: AppState }) {
        useFullTextSearch(p.s, search, dispatch, 0, throttleMs);
        return <Text>x</Text>;
      }
      await renderInk(<Early s={s} />);
      for (let i = 0; i < 100 && !actions.some((a) => a.type === "fulltext.done"); i++)
        await act(async () => settle(50));
      const batches = actions.filter((a): a is Hits => a.type === "fulltext.hits" && a.hits.length > 0);
      expect(batches.length).toBeGreaterThan(0);
      const [answer] = batches;
      // Every hit in the first batch: the one checked first, the 6 read whole, the 5 named.
      expect(answer.hits.length).toBe(12);
      expect(answer.unchecked?.length).toBe(5);
      // None of the named confirmed by its file yet: their checking waited for the batch.
      expect(answer.confirmed?.length).toBe(7);
      expect(answer.searched).toBe(12);
    },
  );
});

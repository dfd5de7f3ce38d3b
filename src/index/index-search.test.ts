import { appendFileSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE } from "../../test/helpers/tmp-store.js";
import { scanStore } from "../scan/scan-store.js";
import { caughtUp, coverageOf } from "./index-search.js";
import { openStoreIndex } from "./store-index.js";
import { indexStaleText } from "./text-index.js";

afterEach(() => cleanupTmp());

describe("caughtUp", () => {
  it("says whether the index has read every session's text as the file is now", async () => {
    const store = copyStore(PI_STORE);
    const index = openStoreIndex(store, (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
    const { sessions } = await scanStore(store, {}, { cache: index.scans });
    const targets = () =>
      sessions.map((s) => ({ path: s.path, bytes: statSync(s.path).size, mtimeMs: statSync(s.path).mtimeMs }));
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

import { appendFileSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE } from "../../test/helpers/tmp-store.js";
import { scanStore } from "../scan/scan-store.js";
import { coversAll } from "./index-search.js";
import { openStoreIndex } from "./store-index.js";
import { indexStaleText } from "./text-index.js";

afterEach(() => cleanupTmp());

describe("coversAll", () => {
  it("says whether the index holds every session's text as the file is now", async () => {
    const store = copyStore(PI_STORE);
    const index = openStoreIndex(store, (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
    const { sessions } = await scanStore(store, {}, { cache: index.scans });
    const targets = () =>
      sessions.map((s) => ({ path: s.path, bytes: statSync(s.path).size, mtimeMs: statSync(s.path).mtimeMs }));
    expect(coversAll(index.db, targets(), false)).toBe(false); // summaries only: no text yet
    await indexStaleText(index.db, undefined, { tools: false });
    expect(coversAll(index.db, targets(), false)).toBe(true);
    expect(coversAll(index.db, targets(), true)).toBe(false); // tool texts were left out
    await indexStaleText(index.db);
    expect(coversAll(index.db, targets(), true)).toBe(true);
    // An append the index has not read.
    const file = sessions[0].path;
    if (!readFileSync(file, "utf8").endsWith("\n")) appendFileSync(file, "\n");
    appendFileSync(file, '{"type":"custom","id":"c1","parentId":null,"timestamp":"2026-11-24T12:00:00.000Z"}\n');
    expect(coversAll(index.db, targets(), false)).toBe(false);
    index.close();
  });
});

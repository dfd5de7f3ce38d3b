import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE, settle } from "../../../test/helpers/tmp-store.js";
import type { CliIO } from "./io.js";
import { LIST_KEYS, reviverOf, scanColumns } from "./scan-columns.js";

afterEach(() => cleanupTmp());

describe("scanColumns", () => {
  it("gives the listed fields alone, whether the summaries were read now or kept by the index", async () => {
    const store = copyStore(PI_STORE);
    settle(store);
    const env = { PI_SESSIONS_CACHE_DIR: join(makeTmpDir(), "cache"), PI_SESSIONS_INDEX: "1" };
    const io: CliIO = { stdout: () => {}, stderr: (m) => expect.fail(m), cwd: store, env, isTTY: false };
    const allowed = new Set<string>(LIST_KEYS);
    // The first run reads every file; the second takes them from the index's snapshot.
    const first = await scanColumns(store, io, LIST_KEYS);
    const again = await scanColumns(store, io, LIST_KEYS);
    expect(first.sessions.length).toBeGreaterThan(3);
    for (const s of [...first.sessions, ...again.sessions])
      expect(Object.keys(s).filter((k) => !allowed.has(k))).toEqual([]);
    const byPath = (rows: typeof first.sessions) => [...rows].sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(byPath(again.sessions)).toEqual(byPath(first.sessions));
  });
});

describe("reviverOf", () => {
  it("makes a stored value the summary's again: dates from epoch milliseconds, no warnings as none, a missing key missing", () => {
    expect(reviverOf("created")(1_700_000_000_000)).toEqual(new Date(1_700_000_000_000));
    expect(reviverOf("modified")("2026-01-02T03:04:05.000Z")).toEqual(new Date("2026-01-02T03:04:05.000Z"));
    expect(Number.isNaN((reviverOf("created")(undefined) as Date).getTime())).toBe(true);
    expect(reviverOf("warnings")(undefined)).toEqual([]);
    expect(reviverOf("warnings")(["w"])).toEqual(["w"]);
    expect(reviverOf("name")(null)).toBeUndefined();
    expect(reviverOf("name")(undefined)).toBeUndefined();
    expect(reviverOf("messageCount")(0)).toBe(0);
    expect(reviverOf("name")("")).toBe("");
    // One function per kind of key, found once for a column.
    expect(reviverOf("created")).toBe(reviverOf("modified"));
    expect(reviverOf("name")).toBe(reviverOf("cwd"));
  });
});

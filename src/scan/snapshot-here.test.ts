import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE } from "../../test/helpers/tmp-store.js";
import { decodeIdentities } from "../index/snapshot-codec.js";
import { openStoreIndex } from "../index/store-index.js";
import { scanStore } from "./scan-store.js";
import { SnapshotHere } from "./snapshot-here.js";

afterEach(() => cleanupTmp());

/** Scans the store through the index at `path` (filling its snapshot); the snapshot's generation. */
async function scanned(store: string, path: string): Promise<string> {
  const index = openStoreIndex(store, (m) => expect.fail(m), { path })!;
  await scanStore(store, {}, { cache: index.scans });
  // As the scan worker does: a command's scan leaves a snapshot with a few rows changed as it is.
  index.scans.writeSnapshot();
  const body = (index.db.q("SELECT body FROM snapshot WHERE id = 1").get() as { body: Uint8Array }).body;
  index.close();
  return decodeIdentities(body)!.gen;
}

describe("SnapshotHere (the scan worker's parent reads the index's snapshot itself)", () => {
  it("gives the summaries of the rows of the generation asked for, reading again when it was rewritten since", async () => {
    const store = copyStore(PI_STORE);
    const path = join(makeTmpDir(), "index.sqlite");
    const first = await scanned(store, path);
    const here = new SnapshotHere(path);
    here.load();
    const rows = here.rows(first, [0, 1])!;
    expect(rows).toHaveLength(2);
    expect(rows[0].modified).toBeInstanceOf(Date);
    // Another run rewrote it (a session gone): the worker's rows are of the new one.
    rmSync(rows[0].path);
    const second = await scanned(store, path);
    expect(second).not.toBe(first);
    expect(here.rows(second, [0])).toHaveLength(1);
    // A generation it cannot find, a row it does not have: none (the caller scans without it).
    expect(here.rows("no-such-generation", [0])).toBeUndefined();
    expect(here.rows(second, [100_000])).toBeUndefined();
  });

  it("gives summaries whose equal lists and lineage are one value (held for as long as the list shows them)", async () => {
    const store = copyStore(PI_STORE);
    const path = join(makeTmpDir(), "index.sqlite");
    const gen = await scanned(store, path);
    const here = new SnapshotHere(path);
    const all = here.rows(gen, [...Array(decodeIdentitiesOf(path).n).keys()])!;
    const fresh = await scanStore(store, {});
    const byPath = new Map(fresh.sessions.map((s) => [s.path, s]));
    // The same summaries as a scan makes (a kept row's lineage is the worker's to resolve).
    for (const s of all) expect({ ...s, lineage: null }).toEqual({ ...byPath.get(s.path), lineage: null });
    const none = all.filter((s) => s.lineage.status === "none");
    const noWarnings = all.filter((s) => s.warnings.length === 0);
    expect(none.length).toBeGreaterThan(1);
    expect(noWarnings.length).toBeGreaterThan(1);
    for (const s of none) expect(s.lineage).toBe(none[0].lineage);
    for (const s of noWarnings) expect(s.warnings).toBe(noWarnings[0].warnings);
  });

  it("has none when the index is not there", () => {
    const here = new SnapshotHere(join(makeTmpDir(), "none.sqlite"));
    here.load();
    expect(here.rows("g", [0])).toBeUndefined();
  });
});

/** The index's snapshot's identities (how many rows it has). */
function decodeIdentitiesOf(path: string): { n: number } {
  const index = openStoreIndex(join(path, ".."), (m) => expect.fail(m), { path })!;
  try {
    const body = (index.db.q("SELECT body FROM snapshot WHERE id = 1").get() as { body: Uint8Array }).body;
    return decodeIdentities(body)!;
  } finally {
    index.close();
  }
}

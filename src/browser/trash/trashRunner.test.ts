import { describe, expect, it } from "vitest";
import { RECORDS } from "../../../test/helpers/trash-records.js";
import { runTrashEffect, type TrashIO } from "./trashRunner.js";
import type { TrashAction, TrashItem } from "./trashTypes.js";

/** A promise and its resolve/reject, to answer as a host would, later. */
function later<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((a, b) => ((resolve = a), (reject = b)));
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const host = (r: TrashItem, name: string, deletedAt: string): TrashItem => ({ ...r, host: name, deletedAt });

describe("the trash view's effects with other machines", () => {
  it("shows this machine's trash at once and each host's as it answers, newest first; one that fails adds none", async () => {
    const alpha = later<TrashItem[]>();
    const beta = later<TrashItem[]>();
    const io: TrashIO = {
      list: () => [RECORDS[0], RECORDS[1]],
      listHosts: () => [alpha.promise, beta.promise],
      purge: () => {},
    };
    const seen: TrashAction[] = [];
    runTrashEffect({ type: "trash.list", storeDir: "/s" }, io, (a) => seen.push(a));
    expect(seen).toEqual([{ type: "trash.listed", records: [RECORDS[0], RECORDS[1]] }]);
    const a = host(RECORDS[2], "alpha", "2026-11-25T00:00:00");
    alpha.resolve([a]);
    await tick();
    expect(seen.at(-1)).toEqual({ type: "trash.listed", records: [RECORDS[0], a, RECORDS[1]] });
    beta.reject(new Error("beta: unreachable"));
    await tick();
    expect(seen).toHaveLength(2);
  });

  it("a host's answer to an earlier look is not shown over a later one", async () => {
    const slow = later<TrashItem[]>();
    let first = true;
    const io: TrashIO = {
      list: () => [],
      listHosts: () => (first ? ((first = false), [slow.promise]) : []),
      purge: () => {},
    };
    const seen: TrashAction[] = [];
    runTrashEffect({ type: "trash.list", storeDir: "/s" }, io, (a) => seen.push(a));
    runTrashEffect({ type: "trash.list", storeDir: "/s" }, io, (a) => seen.push(a));
    slow.resolve([host(RECORDS[0], "alpha", "2026-11-25T00:00:00")]);
    await tick();
    expect(seen).toEqual([
      { type: "trash.listed", records: [] },
      { type: "trash.listed", records: [] },
    ]);
  });

  it("a delete for good on a host is said when the host has carried it out, or why not", async () => {
    const done = later<void>();
    const seen: TrashAction[] = [];
    const io: TrashIO = { list: () => [], purge: () => done.promise };
    runTrashEffect({ type: "trash.purge", record: RECORDS[0] }, io, (a) => seen.push(a));
    expect(seen).toEqual([]);
    done.resolve();
    await tick();
    expect(seen).toEqual([{ type: "trash.purged", record: RECORDS[0] }]);
    const refused = later<void>();
    runTrashEffect({ type: "trash.purge", record: RECORDS[1] }, { ...io, purge: () => refused.promise }, (a) =>
      seen.push(a),
    );
    refused.reject(new Error("alpha: not in its trash"));
    await tick();
    expect(seen.at(-1)).toEqual({
      type: "trash.purged",
      record: RECORDS[1],
      error: "not deleted: alpha: not in its trash",
    });
  });
});

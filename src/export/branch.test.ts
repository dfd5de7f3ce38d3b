import { afterEach, describe, expect, it } from "vitest";
import { assistant, entry, user, writeBranchedSession, writeSession } from "../../test/helpers/session-file.js";
import { loadSessionIndex } from "../store/session-index.js";
import { allBranches, branchPath, branchThrough, UnknownEntryError } from "./branch.js";

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

async function branched() {
  const s = writeBranchedSession();
  cleanups.push(s.cleanup);
  return loadSessionIndex(s.path);
}

describe("branchThrough", () => {
  it("is the active branch without an entry, or with one on it", async () => {
    const index = await branched();
    const active = ["m0", "u1", "a1", "u3", "a3", "l1"];
    expect(branchThrough(index)).toEqual(active);
    expect(branchThrough(index, "a1")).toEqual(active);
    expect(branchThrough(index, "l1")).toEqual(active);
  });
  it("off the active branch: down to the newest leaf below the entry", async () => {
    const index = await branched();
    expect(branchThrough(index, "u2")).toEqual(["m0", "u1", "a1", "u2", "a2"]);
    expect(branchThrough(index, "a2")).toEqual(["m0", "u1", "a1", "u2", "a2"]);
  });
  it("picks the newest child at each branch point below the entry", async () => {
    const s = writeSession([
      user("r", null, "root"),
      user("x", "r", "off"),
      assistant("old", "x", "older child"),
      assistant("new", "x", "newer child"),
      user("main", "r", "the active branch"),
    ]);
    cleanups.push(s.cleanup);
    const index = await loadSessionIndex(s.path);
    expect(branchThrough(index, "x")).toEqual(["r", "x", "new"]);
  });
  it("throws for an unknown entry", async () => {
    const index = await branched();
    expect(() => branchThrough(index, "nope")).toThrow(UnknownEntryError);
  });
});

describe("allBranches", () => {
  it("active branch first; each later one holds only its own entries and where it branches off", async () => {
    const index = await branched();
    const bs = allBranches(index);
    expect(bs.map((b) => [b.leafId, b.active, b.from, b.own])).toEqual([
      ["l1", true, null, ["m0", "u1", "a1", "u3", "a3", "l1"]],
      ["a2", false, "a1", ["u2", "a2"]],
    ]);
    expect(branchPath(index, bs[1])).toEqual(["m0", "u1", "a1", "u2", "a2"]);
    expect(bs[1].ownFrom).toBe(3);
  });
  it("every entry is in exactly one branch's own part, orphan roots included", async () => {
    const s = writeSession([
      user("r", null, "root"),
      assistant("a", "r", "one"),
      assistant("b", "r", "two"),
      entry("o", "missing-parent", { message: { role: "user", content: "orphan" } }),
      assistant("oa", "o", "orphan answer"),
    ]);
    cleanups.push(s.cleanup);
    const index = await loadSessionIndex(s.path);
    const bs = allBranches(index);
    const own = bs.flatMap((b) => b.own);
    expect(own.sort()).toEqual(["a", "b", "o", "oa", "r"]);
    expect(bs[0]).toMatchObject({ leafId: "oa", active: true });
    expect(bs.find((b) => b.leafId === "b")).toMatchObject({ from: "r" });
  });
});

import { describe, expect, it } from "vitest";
import type { AppAction } from "../app/appReducer.js";
import { realTreeIO, runTreeEffect, type TreeIO } from "./treeRunner.js";

describe("runTreeEffect: resume at an entry with a pi that cannot be started", () => {
  it("writes nothing and says why", async () => {
    const navigated: string[] = [];
    const io: TreeIO = {
      ...realTreeIO,
      navigate: async (p) => (navigated.push(p), null),
      mtimeMs: async () => 0,
      now: () => 1e12,
      piProblem: () => "cannot resume: 'pi' is not on PATH",
    };
    const got: AppAction[] = [];
    runTreeEffect(
      { type: "tree.write", path: "/s.jsonl", write: { op: "navigate", entryId: "e1" }, force: true },
      (a) => got.push(a),
      io,
      {},
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(navigated).toEqual([]);
    expect(got).toEqual([{ type: "tree.writeFailed", path: "/s.jsonl", error: "cannot resume: 'pi' is not on PATH" }]);
  });
  it("a label is written whatever pi is", async () => {
    const labelled: string[] = [];
    const io: TreeIO = {
      ...realTreeIO,
      label: async (p) => (labelled.push(p), {} as never),
      mtimeMs: async () => 0,
      now: () => 1e12,
      stamp: () => undefined,
      piProblem: () => "missing",
    };
    const got: AppAction[] = [];
    runTreeEffect(
      { type: "tree.write", path: "/s.jsonl", write: { op: "label", entryId: "e1", label: "x" }, force: true },
      (a) => got.push(a),
      io,
      {},
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(labelled).toEqual(["/s.jsonl"]);
    expect(got[0]).toMatchObject({ type: "tree.written" });
  });
});

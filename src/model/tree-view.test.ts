import { afterAll, describe, expect, it } from "vitest";
import { assistant, user, writeBranchedSession, writeSession } from "../../test/helpers/session-file.js";
import { loadSessionIndex } from "../store/session-index.js";
import { buildTreeView, isFoldable, nextFilter, rowPrefix, segmentStart, siblingBranch } from "./tree-view.js";

// u1 ─ a1 ─┬─ u2 ─ a2          (abandoned branch, older)
//          └─ u3 ─ a3 ─ L(label on u3)   (active: leaf is the label entry)
const file = writeBranchedSession();
afterAll(() => file.cleanup());

const ids = (v: ReturnType<typeof buildTreeView>) => v.rows.map((r) => r.id);

describe("buildTreeView", () => {
  it("lists the active branch first and hides bookkeeping by default", async () => {
    const index = await loadSessionIndex(file.path);
    const v = buildTreeView(index, "default", new Set());
    expect(ids(v)).toEqual(["u1", "a1", "u3", "a3", "u2", "a2"]);
    expect([...v.activeIds]).toEqual(["m0", "u1", "a1", "u3", "a3", "l1"]);
  });

  it("indents only at the branch point and draws connectors and fold marks", async () => {
    const index = await loadSessionIndex(file.path);
    const v = buildTreeView(index, "default", new Set());
    const prefixes = v.rows.map((r) => rowPrefix(v, r, new Set()));
    // As pi: the first generation after a branch point is indented one level further.
    expect(prefixes).toEqual(["", "", "├⊟ ", "│     ", "└⊟ ", "      "]);
    expect(isFoldable(v, "u3")).toBe(true);
    expect(isFoldable(v, "a3")).toBe(false);
  });

  it("folding hides a branch's descendants and marks it folded", async () => {
    const index = await loadSessionIndex(file.path);
    const v = buildTreeView(index, "default", new Set(["u3"]));
    expect(ids(v)).toEqual(["u1", "a1", "u3", "u2", "a2"]);
    expect(rowPrefix(v, v.rows[2], new Set(["u3"]))).toBe("├⊞ ");
  });

  it("filters cycle and narrow the rows", async () => {
    const index = await loadSessionIndex(file.path);
    expect(nextFilter("default")).toBe("no-tools");
    expect(nextFilter("all")).toBe("default");
    expect(ids(buildTreeView(index, "user-only", new Set()))).toEqual(["u1", "u3", "u2"]);
    expect(ids(buildTreeView(index, "labelled-only", new Set()))).toEqual(["u3"]);
    expect(ids(buildTreeView(index, "all", new Set()))).toEqual(["m0", "u1", "a1", "u3", "a3", "l1", "u2", "a2"]);
  });

  it("jumps between sibling branches and segment starts", async () => {
    const index = await loadSessionIndex(file.path);
    const v = buildTreeView(index, "default", new Set());
    const row = (id: string) => v.rowOf.get(id)!;
    expect(siblingBranch(v, row("a3"), 1)).toBe(row("u2"));
    expect(siblingBranch(v, row("a2"), -1)).toBe(row("u3"));
    expect(siblingBranch(v, row("u3"), -1)).toBe(row("u3"));
    expect(segmentStart(v, row("a3"), "up")).toBe(row("u3"));
    expect(segmentStart(v, row("u1"), "down")).toBe(row("u3"));
  });
});

describe("scale", () => {
  it("flattens a 100,000-deep chain without recursion", async () => {
    const entries = [];
    let parent: string | null = null;
    for (let i = 0; i < 100_000; i++) {
      const id = i.toString(16).padStart(8, "0");
      entries.push(i % 2 ? assistant(id, parent, `a${i}`) : user(id, parent, `u${i}`));
      parent = id;
    }
    const deep = writeSession(entries);
    try {
      const index = await loadSessionIndex(deep.path);
      const v = buildTreeView(index, "default", new Set());
      expect(v.rows).toHaveLength(100_000);
      expect(v.rows[99_999].id).toBe(parent);
      expect(v.activeIds.size).toBe(100_000);
    } finally {
      deep.cleanup();
    }
  });
});

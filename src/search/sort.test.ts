import { describe, expect, it } from "vitest";
import { makeSummary } from "../../test/helpers/sessions.js";
import { nextSort, type SortKey, sortSessions, SORTS, threadSessions } from "./sort.js";

const d = (m: number) => new Date(Date.UTC(2025, 0, 1, 0, m));

describe("sortSessions", () => {
  const a = makeSummary({ path: "/a", name: "zeta", firstMessage: "x", modified: d(1), created: d(9), messageCount: 5, bytes: 10 });
  const b = makeSummary({ path: "/b", firstMessage: "alpha", modified: d(3), created: d(2), messageCount: 50, bytes: 30 });
  const c = makeSummary({ path: "/c", name: "Beta", firstMessage: "y", modified: d(2), created: d(5), messageCount: 1, bytes: 20 });
  const paths = (sort: Parameters<typeof sortSessions>[1]) => sortSessions([a, b, c], sort).map((s) => s.path);

  it("sorts by modified, created, name, messages and size", () => {
    expect(paths("recent")).toEqual(["/b", "/c", "/a"]);
    expect(paths("created")).toEqual(["/a", "/c", "/b"]);
    expect(paths("name")).toEqual(["/c", "/a", "/b"]);
    expect(paths("messages")).toEqual(["/b", "/a", "/c"]);
    expect(paths("size")).toEqual(["/b", "/c", "/a"]);
  });
  it("does not mutate its input", () => {
    const list = [a, b, c];
    sortSessions(list, "size");
    expect(list.map((s) => s.path)).toEqual(["/a", "/b", "/c"]);
  });
  it("cycles recent → created → name → messages → size → threaded → recent", () => {
    let s: SortKey = SORTS[0];
    const seen = [s];
    for (let i = 0; i < SORTS.length; i++) seen.push((s = nextSort(s)));
    expect(seen).toEqual(["recent", "created", "name", "messages", "size", "threaded", "recent"]);
  });
});

describe("threadSessions", () => {
  it("puts forks under their parent with tree glyphs", () => {
    const root = makeSummary({ path: "/r" });
    const f1 = makeSummary({ path: "/f1", lineage: { status: "resolved", path: "/r", by: "realpath" } });
    const f2 = makeSummary({ path: "/f2", parentSessionPath: "/r" });
    const g = makeSummary({ path: "/g", parentSessionPath: "/f1" });
    const other = makeSummary({ path: "/o" });
    const rows = threadSessions([f1, other, root, g, f2]);
    expect(rows.map((r) => r.prefix + r.session.path)).toEqual(["/o", "/r", "├─ /f1", "│  └─ /g", "└─ /f2"]);
    expect(rows.map((r) => r.depth)).toEqual([0, 0, 1, 2, 1]);
  });
  it("treats a fork whose parent is absent or missing as a root", () => {
    const f = makeSummary({ path: "/f", parentSessionPath: "/gone" });
    const m = makeSummary({ path: "/m", parentSessionPath: "/f", lineage: { status: "missing" } });
    expect(threadSessions([f, m]).map((r) => [r.session.path, r.depth])).toEqual([["/f", 0], ["/m", 0]]);
  });
  it("does not lose sessions in a cycle", () => {
    const a = makeSummary({ path: "/a", parentSessionPath: "/b" });
    const b = makeSummary({ path: "/b", parentSessionPath: "/a" });
    expect(threadSessions([a, b]).map((r) => r.session.path).sort()).toEqual(["/a", "/b"]);
  });
});

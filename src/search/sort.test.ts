import { describe, expect, it } from "vitest";
import { makeSummary } from "../../test/helpers/sessions.js";
import { nextSort, type SortKey, sortSessions, SORTS, threadSessions } from "./sort.js";

const d = (m: number) => new Date(Date.UTC(2025, 0, 1, 0, m));

describe("sortSessions", () => {
  const a = makeSummary({
    path: "/a",
    name: "zeta",
    firstMessage: "x",
    modified: d(1),
    created: d(9),
    messageCount: 5,
    bytes: 10,
  });
  const b = makeSummary({
    path: "/b",
    firstMessage: "alpha",
    modified: d(3),
    created: d(2),
    messageCount: 50,
    bytes: 30,
  });
  const c = makeSummary({
    path: "/c",
    name: "Beta",
    firstMessage: "y",
    modified: d(2),
    created: d(5),
    messageCount: 1,
    bytes: 20,
  });
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
    const root = makeSummary({ path: "/r", modified: d(1) });
    const f1 = makeSummary({
      path: "/f1",
      modified: d(1),
      lineage: { status: "resolved", path: "/r", by: "realpath" },
    });
    const f2 = makeSummary({ path: "/f2", modified: d(1), parentSessionPath: "/r" });
    const g = makeSummary({ path: "/g", modified: d(1), parentSessionPath: "/f1" });
    const other = makeSummary({ path: "/o", modified: d(1) });
    const rows = threadSessions([f1, other, root, g, f2]);
    expect(rows.map((r) => r.prefix + r.session.path)).toEqual(["/o", "/r", "├─ /f1", "│  └─ /g", "└─ /f2"]);
    expect(rows.map((r) => r.depth)).toEqual([0, 0, 1, 2, 1]);
  });
  it("orders threads and sibling forks by the latest activity anywhere under them, as pi's picker", () => {
    // Input in recent order: /new (5) first, then /old (1) whose fork /old-f was active at 9.
    const fresh = makeSummary({ path: "/new", modified: d(5) });
    const old = makeSummary({ path: "/old", modified: d(1) });
    const quiet = makeSummary({ path: "/old-q", modified: d(2), parentSessionPath: "/old" });
    const busy = makeSummary({ path: "/old-b", modified: d(3), parentSessionPath: "/old" });
    const deep = makeSummary({ path: "/old-b-x", modified: d(9), parentSessionPath: "/old-b" });
    const rows = threadSessions([deep, fresh, busy, quiet, old]);
    expect(rows.map((r) => r.session.path)).toEqual(["/old", "/old-b", "/old-b-x", "/old-q", "/new"]);
  });
  it("breaks ties of modified as pi: by file name descending, or by file mtime first across the default store", () => {
    const x = makeSummary({ path: "/s/p/2026_a.jsonl", modified: d(1), mtimeMs: 2 });
    const y = makeSummary({ path: "/s/q/2026_b.jsonl", modified: d(1), mtimeMs: 1 });
    expect(sortSessions([x, y], "recent", "name").map((s) => s.path)).toEqual([y.path, x.path]);
    expect(sortSessions([y, x], "recent", "mtime").map((s) => s.path)).toEqual([x.path, y.path]);
  });
  it("treats a fork whose parent is absent or missing as a root", () => {
    const f = makeSummary({ path: "/f", parentSessionPath: "/gone" });
    const m = makeSummary({ path: "/m", parentSessionPath: "/f", lineage: { status: "missing" } });
    expect(threadSessions([f, m]).map((r) => [r.session.path, r.depth])).toEqual([
      ["/f", 0],
      ["/m", 0],
    ]);
  });
  it("does not lose sessions in a cycle", () => {
    const a = makeSummary({ path: "/a", parentSessionPath: "/b" });
    const b = makeSummary({ path: "/b", parentSessionPath: "/a" });
    expect(
      threadSessions([a, b])
        .map((r) => r.session.path)
        .sort(),
    ).toEqual(["/a", "/b"]);
  });
});

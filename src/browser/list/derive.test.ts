import { describe, expect, it } from "vitest";
import { parseQuery } from "../../search/query.js";
import { makeSummary } from "../../../test/helpers/sessions.js";
import { bodyNeed, deriveRows, listPlace } from "./derive.js";
import type { SessionMap } from "./sessions.js";

const t = new Date(Date.UTC(2026, 0, 1));
const map = (...xs: ReturnType<typeof makeSummary>[]): SessionMap => new Map(xs.map((x) => [x.path, x]));
const order = (sessions: SessionMap, scope: "all" | "cwd", storeDir: string) =>
  deriveRows(sessions, { scope, cwd: "/home/u/proj", storeDir, query: parseQuery(""), sort: "recent" }).rows.map(
    (r) => r.session.path,
  );

describe("deriveRows: ties of modified as pi breaks them", () => {
  it("the default store, every folder: the newer file first; one folder: file name descending", () => {
    const a = makeSummary({ path: "/store/--home-u-proj--/2026_a.jsonl", modified: t, mtimeMs: 2 });
    const b = makeSummary({ path: "/store/--home-u-proj--/2026_b.jsonl", modified: t, mtimeMs: 1 });
    expect(order(map(b, a), "all", "/store")).toEqual([a.path, b.path]);
    expect(order(map(a, b), "cwd", "/store")).toEqual([b.path, a.path]);
  });
  it("a custom (flat) folder: file name descending in every scope", () => {
    const a = makeSummary({ path: "/custom/2026_a.jsonl", cwd: "/home/u/proj", modified: t, mtimeMs: 2 });
    const b = makeSummary({ path: "/custom/2026_b.jsonl", cwd: "/home/u/proj", modified: t, mtimeMs: 1 });
    expect(order(map(a, b), "all", "/custom")).toEqual([b.path, a.path]);
  });
  it("this folder: pi's list(cwd), the project folder decides in the default store", () => {
    const here = makeSummary({ path: "/store/--home-u-proj--/x.jsonl", cwd: "/imported/from/elsewhere" });
    const there = makeSummary({ path: "/store/--home-u-other--/y.jsonl", cwd: "/home/u/proj" });
    expect(order(map(here, there), "cwd", "/store")).toEqual([here.path]);
  });
});

describe("bodyNeed: what the full-text search reads of each session", () => {
  const q = parseQuery("parser cache");
  const both = makeSummary({ path: "/s/both.jsonl", name: "parser cache" });
  const one = makeSummary({ path: "/s/one.jsonl", firstMessage: "fix the parser" });
  const none = makeSummary({ path: "/s/none.jsonl", firstMessage: "hello" });
  const sessions = map(both, one, none);

  it("not the file of a session whose own fields rank it above what its conversation could add", () => {
    const need = bodyNeed(sessions, q);
    expect(need(both.path)).toBeNull();
    expect(need(one.path)).toEqual([false, true]);
    expect(need(none.path)).toEqual([true, true]);
  });

  it("whose row is the same with its conversation's hit as without it", () => {
    const rows = (fullText?: Map<string, { snippet: string; held: boolean[] }>) =>
      deriveRows(sessions, { scope: "all", cwd: "/", query: q, sort: "recent", fullText }).rows.map((r) => [
        r.session.path,
        r.snippet,
      ]);
    const hit = { snippet: "…parser cache…", held: [true, true] };
    expect(
      rows(
        new Map([
          [both.path, hit],
          [one.path, hit],
        ]),
      ),
    ).toEqual(rows(new Map([[one.path, hit]])));
  });
});

describe("listPlace: the order the rows about to be shown are checked first", () => {
  const t0 = Date.UTC(2026, 0, 1);
  const at = (h: number) => new Date(t0 + h * 3_600_000);
  /** Sessions on two machines, some named, one a fork of another, some holding "parser" in their titles. */
  const list = [
    makeSummary({ path: "/store/--p--/a.jsonl", firstMessage: "the parser", modified: at(1) }),
    makeSummary({ path: "/store/--p--/b.jsonl", firstMessage: "lexer", name: "named b", modified: at(5) }),
    makeSummary({ path: "/store/--p--/c.jsonl", firstMessage: "parser", modified: at(3), host: "beta" }),
    makeSummary({
      path: "/store/--p--/d.jsonl",
      firstMessage: "a parser",
      name: "named d",
      modified: at(4),
      parentSessionPath: "/store/--p--/a.jsonl",
    }),
    makeSummary({ path: "/store/--p--/e.jsonl", firstMessage: "lexer", name: "e", modified: at(2), host: "alpha" }),
    makeSummary({ path: "/store/--p--/f.jsonl", firstMessage: "parser", modified: at(6) }),
  ];
  const sessions: SessionMap = new Map(list.map((x) => [x.path, x]));
  const q = parseQuery("parser");
  const hits = new Map(list.map((x) => [x.path, { snippet: "…parser…", held: [true] }]));

  it.each([
    { sort: "recent" as const, namedOnly: false },
    { sort: "recent" as const, namedOnly: true },
    { sort: "threaded" as const, namedOnly: false },
    { sort: "threaded" as const, namedOnly: true },
  ])("orders every hit as deriveRows lists them (%o, every host's, beta then alpha)", ({ sort, namedOnly }) => {
    const hosts = ["beta", "alpha"];
    const opts = { scope: "hosts" as const, cwd: "/", storeDir: "/store", query: q, sort, namedOnly, hosts };
    // The list as it stands before the hits (the place is asked of the last derive).
    deriveRows(sessions, opts);
    const place = listPlace(sessions, q, { sort, namedOnly, hosts })!;
    const placed = list
      .map((x) => ({ path: x.path, p: place(x.path, [true]) }))
      .filter((x) => x.p !== null)
      .sort((a, b) => (a.p!.group ?? 0) - (b.p!.group ?? 0) || b.p!.rank - a.p!.rank || a.p!.at - b.p!.at)
      .map((x) => x.path);
    const rows = deriveRows(sessions, { ...opts, fullText: hits }).rows.map((r) => r.session.path);
    expect(placed).toEqual(rows);
  });
});

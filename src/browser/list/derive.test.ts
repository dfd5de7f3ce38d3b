import { describe, expect, it } from "vitest";
import { parseQuery } from "../../search/query.js";
import { makeSummary } from "../../../test/helpers/sessions.js";
import { bodyNeed, deriveRows } from "./derive.js";
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

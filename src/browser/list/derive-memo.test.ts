import { describe, expect, it, vi } from "vitest";
import * as query from "../../search/query.js";
import { parseQuery } from "../../search/query.js";
import * as sort from "../../search/sort.js";
import { makeSummary } from "../../../test/helpers/sessions.js";
import { searchPlan } from "../../search/plan.js";
import * as fieldBytes from "./fieldBytes.js";
import { bodyNeed, coolListFields, deriveRows, warmListFields } from "./derive.js";
import type { SessionMap } from "./sessions.js";

vi.mock("../../search/sort.js", async (actual) => {
  const real = await actual<typeof import("../../search/sort.js")>();
  return { ...real, sortSessions: vi.fn(real.sortSessions) };
});

vi.mock("../../search/query.js", async (actual) => {
  const real = await actual<typeof import("../../search/query.js")>();
  return { ...real, matchSession: vi.fn(real.matchSession) };
});

vi.mock("./fieldBytes.js", async (actual) => {
  const real = await actual<typeof import("./fieldBytes.js")>();
  return { ...real, bytesText: vi.fn(real.bytesText) };
});

const map = (...xs: ReturnType<typeof makeSummary>[]): SessionMap => new Map(xs.map((x) => [x.path, x]));
const t = new Date(Date.UTC(2026, 0, 1));

describe("deriveRows as a search's hits stream in", () => {
  const a = makeSummary({ path: "/store/--p--/a.jsonl", firstMessage: "parser cache", modified: t });
  const b = makeSummary({ path: "/store/--p--/b.jsonl", firstMessage: "a parser", modified: t, mtimeMs: 5 });
  const c = makeSummary({ path: "/store/--q--/c.jsonl", firstMessage: "nothing here" });
  const sessions = map(a, b, c);
  const q = parseQuery("parser cache");
  const derive = (fullText?: Map<string, { snippet: string; held: boolean[] }>) =>
    deriveRows(sessions, { scope: "all", cwd: "/", storeDir: "/store", query: q, sort: "recent", fullText });

  it("sorts the sessions once for a store, whatever the batches of hits (50,000 sorted per batch cost most of it)", () => {
    const sortSessions = vi.mocked(sort.sortSessions);
    derive();
    sortSessions.mockClear();
    const hit = { snippet: "…cache…", held: [false, true] };
    const rows = derive(new Map([[b.path, hit]]));
    derive(new Map([[c.path, { snippet: "…parser cache…", held: [true, true] }]]));
    expect(sortSessions).not.toHaveBeenCalled();
    expect(rows.rows.map((r) => r.session.path)).toEqual([a.path, b.path]);
    expect(rows.rows[1].snippet).toBe("…cache…");
    // Another store (a new map): sorted again.
    deriveRows(map(a, b), { scope: "all", cwd: "/", storeDir: "/store", query: q, sort: "recent" });
    expect(sortSessions).toHaveBeenCalledTimes(1);
  });

  it("breaks ties by file name when the rows left all lie in the store's own folder, as sorting them alone did", () => {
    const x = makeSummary({ path: "/store/x.jsonl", firstMessage: "zebra", modified: t, mtimeMs: 1 });
    const y = makeSummary({ path: "/store/y.jsonl", firstMessage: "zebra", modified: t, mtimeMs: 2 });
    const z = makeSummary({ path: "/store/--p--/z.jsonl", firstMessage: "other", modified: t, mtimeMs: 3 });
    const all = map(x, y, z);
    const order = (query: string) =>
      deriveRows(all, {
        scope: "all",
        cwd: "/",
        storeDir: "/store",
        query: parseQuery(query),
        sort: "recent",
      }).rows.map((r) => r.session.path);
    // Every session: by file mtime (one lies in a project folder).
    expect(order("")).toEqual([z.path, y.path, x.path]);
    // The two left lie in the store's folder: by file name, descending.
    expect(order("zebra")).toEqual([y.path, x.path]);
    const xNewer = makeSummary({ ...x, mtimeMs: 9 });
    expect(
      deriveRows(map(xNewer, y, z), {
        scope: "all",
        cwd: "/",
        storeDir: "/store",
        query: parseQuery("zebra"),
        sort: "recent",
      }).rows.map((r) => r.session.path),
    ).toEqual([y.path, x.path]);
  });

  it("at a key that adds a word, does not match again the sessions the words before turned away", () => {
    const match = vi.mocked(query.matchSession);
    const at = (q: string) =>
      deriveRows(sessions, { scope: "all", cwd: "/", storeDir: "/store", query: parseQuery(q), sort: "recent" });
    expect(at("zebra").rows).toEqual([]);
    match.mockClear();
    expect(at("zebra cache").rows).toEqual([]);
    expect(match).not.toHaveBeenCalled();
    expect(at("parser cache").rows.map((r) => r.session.path)).toEqual([a.path]);
  });

  it("says what each session needs of its conversation from the scores its rows were ranked by", () => {
    const ctx = { keepFolded: true };
    for (const text of ["parser cache", "parser model:x", "cache zebra", "p"]) {
      const q = parseQuery(text);
      deriveRows(sessions, { scope: "all", cwd: "/", storeDir: "/store", query: q, sort: "recent" });
      const need = bodyNeed(sessions, q);
      const plan = searchPlan(q, ctx);
      const all = plan.terms.map(() => true);
      for (const s of sessions.values()) {
        const n = plan.needOf(s);
        expect(need(s.path)).toEqual(n === null || n.some(Boolean) ? n : plan.rank(s, all).byText ? n : null);
      }
    }
  });

  it("holds no function per searched row: each key's rows outlive a young collection, a closure each tripled what they held", () => {
    const rows = derive(new Map([[b.path, { snippet: "…cache…", held: [false, true] }]])).rows;
    expect(rows.map((r) => r.session.path)).toEqual([a.path, b.path]);
    expect(rows[1].snippet).toBe("…cache…");
    for (const r of rows) expect(Object.values(r).filter((v) => typeof v === "function")).toEqual([]);
  });
});

describe("warmListFields (the search bar opening)", () => {
  const a = makeSummary({ path: "/store/--p--/a.jsonl", cwd: "/p", firstMessage: "parser cache" });
  const b = makeSummary({ path: "/store/--q--/b.jsonl", cwd: "/q", firstMessage: "a parser" });
  const sessions = map(a, b);
  const key = { scope: "all", cwd: "/p", storeDir: "/store", sort: "recent" } as const;

  it("makes the field text of the last derive's list only when it is of these sessions, scope, folder, store and order", () => {
    const made = vi.mocked(fieldBytes.bytesText);
    deriveRows(sessions, { ...key, query: parseQuery("") });
    made.mockClear();
    warmListFields(sessions, { ...key, scope: "cwd" });
    warmListFields(sessions, { ...key, cwd: "/q" });
    warmListFields(sessions, { ...key, storeDir: "/other" });
    warmListFields(sessions, { ...key, sort: "created" });
    warmListFields(map(a, b), key);
    expect(made).not.toHaveBeenCalled();
    warmListFields(sessions, key);
    expect(made).toHaveBeenCalledTimes(1);
    // Made once: the first word typed is matched against it.
    warmListFields(sessions, key);
    deriveRows(sessions, { ...key, query: parseQuery("parser") });
    expect(made).toHaveBeenCalledTimes(1);
  });

  it("lets go of what it made when the bar closes with no word asked of it, not of a text words were matched against", () => {
    const made = vi.mocked(fieldBytes.bytesText);
    const sessions = map(a, b); // a list none was made of yet
    deriveRows(sessions, { ...key, query: parseQuery("") });
    warmListFields(sessions, key);
    made.mockClear();
    coolListFields();
    // Made again at the first word: neither the list's context nor the last text kept it.
    deriveRows(sessions, { ...key, query: parseQuery("parser") });
    expect(made).toHaveBeenCalledTimes(1);
    // A word was asked of it: kept through a closing (the next word needs it).
    coolListFields();
    deriveRows(sessions, { ...key, query: parseQuery("cache") });
    expect(made).toHaveBeenCalledTimes(1);
  });

  it("lets go of what it made when the store changed while the bar was open with no word asked", () => {
    const made = vi.mocked(fieldBytes.bytesText);
    const before = map(a, b); // a list none was made of yet
    deriveRows(before, { ...key, query: parseQuery("") });
    warmListFields(before, key);
    // pi wrote while the bar was open: the list is derived of a new map of the sessions.
    const after = map(a, b);
    deriveRows(after, { ...key, query: parseQuery("") });
    made.mockClear();
    coolListFields();
    // Nothing held of the warmed text: the first word's text is folded from the sessions, not
    // taken from its parts.
    deriveRows(after, { ...key, query: parseQuery("parser") });
    expect(made).toHaveBeenCalledTimes(1);
    expect(made.mock.calls[0][1]).toBeUndefined();
  });
});

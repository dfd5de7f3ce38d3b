import { describe, expect, it } from "vitest";
import { makeSummary } from "../../test/helpers/sessions.js";
import { matchSession, parseQuery } from "./query.js";

const s = makeSummary({
  id: "abc12345-0000-4000-8000-000000000001",
  name: "Refactor parser",
  firstMessage: "Please fix the flaky login test",
  cwd: "/home/u/web-app",
  models: ["anthropic/claude-sonnet-4", "openai/gpt-5"],
  labelCount: 2,
});
const plain = makeSummary({ firstMessage: "hello world", cwd: "/tmp/other", models: [], labelCount: 0 });

const m = (q: string, x = s) => matchSession(parseQuery(q), x);

describe("parseQuery", () => {
  it("splits words, phrases, regexes and fields", () => {
    const q = parseQuery('fix "login test" re:fl.ky cwd:web name:"refactor p" label:');
    expect(q.error).toBeUndefined();
    expect(q.terms.map((t) => t.kind)).toEqual(["word", "phrase", "regex", "field", "field", "field"]);
    expect(q.terms[4]).toEqual({ kind: "field", field: "name", text: "refactor p" });
    expect(q.terms[5]).toEqual({ kind: "field", field: "label", text: "" });
  });
  it("is empty for blank input", () => {
    expect(parseQuery("   ").terms).toEqual([]);
  });
  it("reports an invalid regex and matches nothing", () => {
    const q = parseQuery("re:([");
    expect(q.error).toMatch(/invalid pattern/);
    expect(matchSession(q, s)).toBeNull();
  });
  it("keeps an unknown prefix as a plain word", () => {
    expect(parseQuery("http://x").terms[0]).toEqual({ kind: "word", text: "http://x" });
  });
});

describe("matchSession", () => {
  it("matches everything with the empty query", () => {
    expect(m("")).toBe(0);
  });
  it("ANDs terms", () => {
    expect(m("flaky login")).not.toBeNull();
    expect(m("flaky nothing")).toBeNull();
  });
  it("matches substrings over name, first message, cwd and id, case-insensitively when the word is lowercase", () => {
    expect(m("refactor")).not.toBeNull();
    // Smart case: a capital makes the word match only as written.
    expect(m("REFACTOR")).toBeNull();
    expect(m("web-app")).not.toBeNull();
    expect(m("abc123")).not.toBeNull();
    expect(m("nomatch")).toBeNull();
  });
  it("ranks substring matches above fuzzy ones", () => {
    const sub = m("refactor")!;
    const fuzzy = m("rfctr")!;
    expect(fuzzy).not.toBeNull();
    expect(sub).toBeGreaterThan(fuzzy);
  });
  it("a folder's scattered letters rank after a name's", () => {
    const inName = makeSummary({ name: "p b c", cwd: "/x" });
    const inCwd = makeSummary({ cwd: "/home/p/src/b/c", firstMessage: "x" });
    expect(matchSession(parseQuery("pbc"), inName)!).toBeGreaterThan(matchSession(parseQuery("pbc"), inCwd)!);
  });
  it("does not match scattered letters", () => {
    expect(m("pxz")).toBeNull();
    expect(m("plt")).toBeNull(); // p…l…t spread over the message
  });
  it("matches exact phrases only contiguously", () => {
    expect(m('"flaky login"')).not.toBeNull();
    expect(m('"login flaky"')).toBeNull();
  });
  it("matches regexes case-insensitively", () => {
    expect(m("re:^please")).not.toBeNull();
    expect(m("re:^fix")).toBeNull();
  });
  it("filters by cwd, model and name", () => {
    expect(m("cwd:web")).not.toBeNull();
    expect(m("cwd:tmp")).toBeNull();
    expect(m("model:gpt-5")).not.toBeNull();
    expect(m("model:gemini")).toBeNull();
    expect(m("name:parser")).not.toBeNull();
    expect(m("name:parser", plain)).toBeNull();
    expect(m("name:", plain)).toBeNull();
  });
  it("filters labelled sessions, and label text through the hook", () => {
    expect(m("label:")).not.toBeNull();
    expect(m("label:", plain)).toBeNull();
    const q = parseQuery("label:todo");
    expect(matchSession(q, s, { labelsOf: () => ["TODO later"] })).not.toBeNull();
    expect(matchSession(q, s, { labelsOf: () => ["done"] })).toBeNull();
    expect(matchSession(q, plain, { labelsOf: () => ["todo"] })).toBeNull();
  });
});

describe("ranking as pi 1.5.2", () => {
  const named = makeSummary({ name: "deploy script", firstMessage: "x", cwd: "/srv/a" });
  const inMessage = makeSummary({ firstMessage: "fix the deploy step", cwd: "/srv/b" });
  const inFolder = makeSummary({ firstMessage: "x", cwd: "/home/u/deploy" });
  const scattered = makeSummary({ firstMessage: "x", cwd: "/d/e/p/l/o/y" });
  const scatteredName = makeSummary({ name: "dev employ", firstMessage: "x", cwd: "/srv/c" });

  it("name hits first, then id / message / folder substrings, then scattered letters", () => {
    const score = (x: typeof named) => matchSession(parseQuery("deploy"), x)!;
    expect(score(named)).toBeGreaterThan(score(inMessage));
    expect(score(inMessage)).toBe(score(inFolder));
    expect(score(inFolder)).toBeGreaterThan(score(scattered));
    expect(score(inFolder)).toBeGreaterThan(score(scatteredName));
  });
  it("matches names and folders fuzzily, never the message text", () => {
    const msg = makeSummary({ firstMessage: "d e p l o y", cwd: "/x" });
    expect(matchSession(parseQuery("deploy"), msg)).toBeNull();
    expect(matchSession(parseQuery("dply"), named)).not.toBeNull();
    expect(matchSession(parseQuery("dply"), scattered)).not.toBeNull();
  });
  it("matches ids only as substrings", () => {
    const x = makeSummary({ id: "0199abcd-1111", firstMessage: "x", cwd: "/q" });
    expect(matchSession(parseQuery("abcd-11"), x)).not.toBeNull();
    expect(matchSession(parseQuery("0a1"), x)).toBeNull();
  });
  it("a phrase matches across runs of white space in the name", () => {
    const x = makeSummary({ name: "fix   the\tparser", cwd: "/q" });
    expect(matchSession(parseQuery('"fix the parser"'), x)).not.toBeNull();
  });
});

describe("label:", () => {
  const labelled = makeSummary({ labelCount: 2, labels: ["checkpoint", "before refactor"] });
  const unlabelled = makeSummary({ labelCount: 0, labels: [] });
  it("label:TEXT keeps only sessions with a label holding TEXT", () => {
    expect(matchSession(parseQuery("label:zzz"), labelled)).toBeNull();
    expect(matchSession(parseQuery("label:checkpoint"), labelled)).not.toBeNull();
    expect(matchSession(parseQuery("label:REFACTOR"), labelled)).not.toBeNull();
    expect(matchSession(parseQuery("label:checkpoint"), unlabelled)).toBeNull();
  });
  it("label: alone keeps sessions with any label", () => {
    expect(matchSession(parseQuery("label:"), labelled)).not.toBeNull();
    expect(matchSession(parseQuery("label:"), unlabelled)).toBeNull();
  });
});

describe("date filters", () => {
  // Local times: the filters work in the user's days.
  const now = new Date(2026, 10, 20, 15, 30); // 2026-11-20 15:30 local
  const at = (y: number, mo: number, d: number, h = 12) => makeSummary({ modified: new Date(y, mo - 1, d, h) });
  const md = (q: string, x: ReturnType<typeof makeSummary>) => matchSession(parseQuery(q, now), x);

  it("after: starts at local midnight of that day, before: stops at it", () => {
    const octFirstEarly = makeSummary({ modified: new Date(2026, 9, 1, 0, 0, 1) });
    const septLast = makeSummary({ modified: new Date(2026, 8, 30, 23, 59, 59) });
    expect(md("after:2026-10-01", octFirstEarly)).not.toBeNull();
    expect(md("after:2026-10-01", septLast)).toBeNull();
    expect(md("before:2026-10-01", septLast)).not.toBeNull();
    expect(md("before:2026-10-01", octFirstEarly)).toBeNull();
  });
  it("after: and before: together select a month", () => {
    const q = "after:2026-10-01 before:2026-11-01";
    expect(md(q, at(2026, 10, 15))).not.toBeNull();
    expect(md(q, at(2026, 10, 31, 23))).not.toBeNull();
    expect(md(q, at(2026, 11, 1, 0))).toBeNull();
    expect(md(q, at(2026, 9, 30))).toBeNull();
  });
  it("today is since local midnight", () => {
    expect(md("today", at(2026, 11, 20, 0))).not.toBeNull();
    expect(md("TODAY", at(2026, 11, 20, 15))).not.toBeNull();
    expect(md("today", at(2026, 11, 19, 23))).toBeNull();
  });
  it("Nd is the last N×24 hours", () => {
    expect(md("7d", makeSummary({ modified: new Date(now.getTime() - 7 * 86_400_000 + 1000) }))).not.toBeNull();
    expect(md("7d", makeSummary({ modified: new Date(now.getTime() - 7 * 86_400_000 - 1000) }))).toBeNull();
    expect(md("1d", at(2026, 11, 19, 16))).not.toBeNull();
    expect(md("1d", at(2026, 11, 19, 15))).toBeNull();
    expect(md("30D", at(2026, 10, 25))).not.toBeNull();
  });
  it("combine with text terms (AND)", () => {
    const x = makeSummary({ firstMessage: "fix the parser", modified: new Date(2026, 10, 20, 9) });
    expect(md("parser today", x)).not.toBeNull();
    expect(md("lexer today", x)).toBeNull();
    expect(md("parser before:2026-11-20", x)).toBeNull();
  });
  it("parses to date terms; 0d, quoted words and other words stay text", () => {
    expect(parseQuery("7d", now).terms).toEqual([{ kind: "date", from: now.getTime() - 7 * 86_400_000 }]);
    expect(parseQuery("before:2026-11-01", now).terms).toEqual([
      { kind: "date", until: new Date(2026, 10, 1).getTime() },
    ]);
    expect(parseQuery('"today" 0d 7days d7', now).terms).toEqual([
      { kind: "phrase", text: "today" },
      { kind: "word", text: "0d" },
      { kind: "word", text: "7days" },
      { kind: "word", text: "d7" },
    ]);
    expect(parseQuery("after:", now).terms).toEqual([]);
  });
  it("an invalid date is an error and matches nothing", () => {
    for (const q of ["after:2026-02-30", "before:2026-13-01", "after:yesterday", "before:2026-1-1"]) {
      const parsed = parseQuery(q, now);
      expect(parsed.error, q).toMatch(/invalid date/);
      expect(matchSession(parsed, at(2026, 1, 1))).toBeNull();
    }
  });
  it("a session with an invalid modified time matches no date filter", () => {
    expect(md("before:2030-01-01", makeSummary({ modified: new Date(NaN) }))).toBeNull();
  });
});

describe("fzf habits (issue 20)", () => {
  const sessions = [
    makeSummary({ name: "keyboard layout", firstMessage: "x", cwd: "/srv/a" }),
    makeSummary({ firstMessage: "x", cwd: "/home/kevin/my/build/out/and/a/red/dot" }),
    makeSummary({ name: "session 5 notes", firstMessage: "x", cwd: "/srv/b" }),
    makeSummary({ firstMessage: "x", cwd: "/home/u/projects/x15/s" }),
    makeSummary({ name: "naïve café", firstMessage: "x", cwd: "/srv/c" }),
  ];
  const hits = (q: string) =>
    sessions.filter((x) => matchSession(parseQuery(q), x) !== null).map((x) => x.name ?? x.cwd);
  it("letters strewn through a long path are not a match", () => {
    expect(hits("keyboard")).toEqual(["keyboard layout"]);
    expect(hits("s5")).toEqual(["session 5 notes"]);
  });
  it("'word matches only as a substring", () => {
    expect(hits("kl")).toEqual(["keyboard layout"]);
    expect(hits("'kl")).toEqual([]);
    expect(hits("'board")).toEqual(["keyboard layout"]);
  });
  it("accents fold both ways", () => {
    expect(hits("naive")).toEqual(["naïve café"]);
    expect(hits("cafe")).toEqual(["naïve café"]);
    expect(hits("naïve")).toEqual(["naïve café"]);
  });
  it("a capital makes a word case-sensitive", () => {
    expect(hits("Keyboard")).toEqual([]);
    expect(hits("keyboard")).toEqual(["keyboard layout"]);
  });
});

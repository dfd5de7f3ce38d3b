import { describe, expect, it } from "vitest";
import { makeSummary } from "../../test/helpers/sessions.js";
import { compactSubsequence, matchSession, parseQuery } from "./query.js";

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
  it("matches substrings over name, first message, cwd and id, case-insensitively", () => {
    expect(m("REFACTOR")).not.toBeNull();
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

describe("compactSubsequence", () => {
  it("needs the letters in order within a short span", () => {
    expect(compactSubsequence("refactor", "rfctr")).toBe(true);
    expect(compactSubsequence("refactor", "rtcf")).toBe(false);
    expect(compactSubsequence("a" + "x".repeat(50) + "b", "ab")).toBe(false);
    expect(compactSubsequence("abc", "a")).toBe(false);
  });
});

import { describe, expect, it, vi } from "vitest";
import { makeSummary } from "../../../test/helpers/sessions.js";
import * as fieldText from "../../search/field-text.js";
import * as fold from "../../search/fold.js";
import { matchSession, parseQuery } from "../../search/query.js";
import { deriveRows } from "./derive.js";
import { listContext } from "./fieldContext.js";
import { EMPTY_INPUT, insertText, pasteText } from "../core/textInput.js";
import type { SessionMap } from "./sessions.js";

// Every fold counted (what a session's fields cost when matched field by field).
vi.mock("../../search/fold.js", async (actual) => {
  const real = await actual<typeof import("../../search/fold.js")>();
  return { ...real, foldAccents: vi.fn(real.foldAccents) };
});

// Every ranking context made counted (each is a scan of the fields' text per word asked).
vi.mock("../../search/field-text.js", async (actual) => {
  const real = await actual<typeof import("../../search/field-text.js")>();
  return { ...real, rankingContext: vi.fn(real.rankingContext) };
});

// The most bytes a field text may hold, stubbed below V8's string limit (fieldBytes.ts).
const bytesLimit = vi.hoisted(() => ({ value: undefined as number | undefined }));
vi.mock("./fieldBytes.js", async (actual) => {
  const real = await actual<typeof import("./fieldBytes.js")>();
  return {
    ...real,
    bytesText: (...[list, had, max]: Parameters<typeof real.bytesText>) =>
      real.bytesText(list, had, bytesLimit.value ?? max),
  };
});

const sessions = [
  makeSummary({ name: "Parser cache rewrite", cwd: "/home/u/src/parser" }),
  makeSummary({ firstMessage: "why is the Parser slow", cwd: "/home/u/pc" }),
  makeSummary({ firstMessage: "cache  eviction\tpolicy", cwd: "/home/u/prs-cache", models: ["gpt-x"] }),
  makeSummary({ name: "p_a_r_s_e_r", firstMessage: "nothing", cwd: "/srv/cache" }),
  makeSummary({ firstMessage: "naïve café parsing", cwd: "/home/u/proj" }),
  makeSummary({ name: "a\u0001b", firstMessage: "x\u0000y", cwd: "/home/u/proj" }),
  makeSummary({ name: "函数 重构 🚀", firstMessage: "naïve 会话 ✅ Grüße", cwd: "/home/u/研究" }),
  makeSummary({ name: "\udc00half", firstMessage: "a lone \ud800 half, \ufffd", cwd: "/home/u/proj" }),
];

/**
 * Queries typed key by key, each a key more (a code point: an emoji is one key). A query is
 * always well-formed: the search bar's field sanitizes what is typed or pasted (sanitizeLine:
 * a lone surrogate becomes U+FFFD), so none here holds one; the fields may (last test below).
 * Each string starts over, so words of the non-ASCII fields are asked with no word before
 * them that no session holds.
 */
const TYPED = [
  'parser cache "naive cafe" Parser "eviction policy" prs cach a\u0001b x\u0000y model:gpt /pars(e|ing)/ zebra',
  "函数 会话 🚀 ✅ grüße 研究 naive",
  '"会话 ✅" 重构 Grüße /home/u/研',
  "half \ufffd lone",
  "ü 研 🚀 é",
];
const prefixes = (typed: string) => {
  const keys = Array.from(typed);
  return Array.from({ length: keys.length + 1 }, (_, n) => keys.slice(0, n).join(""));
};

describe("listContext: a word matched against the list's fields as one text", () => {
  it("ranks every session as its own fields do, at every key typed", () => {
    for (const typed of TYPED) {
      let matched = 0;
      for (const text of prefixes(typed)) {
        const q = parseQuery(text);
        // A context for each query: its field text made again, its words all new.
        const ctx = listContext(sessions);
        sessions.forEach((s, i) => {
          const own = matchSession(q, s);
          if (own !== null && text) matched++;
          expect(matchSession(q, s, ctx), `${text} / session ${i}`).toBe(own);
        });
      }
      // Sessions matched along the way: the words were asked of the text, not of none.
      expect(matched, typed).toBeGreaterThan(0);
    }
  });

  it("ranks every session as its own fields do with one context for every key typed, and past the words it keeps", () => {
    // As the list uses it: one context for its sessions, asked of each query typed.
    const ctx = listContext(sessions);
    const queries = TYPED.flatMap(prefixes);
    const typedOnes = queries.length;
    // More distinct words than one ranking keeps (a new one is made), some asked again after.
    const words = ["u", "pars", "cach", "évi", "proj", "srv", "gpt", "nothing", "café", "会话", "研究", "🚀", "grüße"];
    for (let i = 0; queries.length < 3 * typedOnes; i++)
      queries.push(`${words[i % words.length]}${i} ${words[(i * 7) % words.length]}`, words[i % words.length]);
    for (const text of queries) {
      const q = parseQuery(text);
      sessions.forEach((s, i) => expect(matchSession(q, s, ctx), `${text} / session ${i}`).toBe(matchSession(q, s)));
    }
  });

  it("is asked well-formed queries only: the search bar makes a lone surrogate U+FFFD as it is typed or pasted", () => {
    for (const field of [insertText(EMPTY_INPUT, "lone \ud800 half"), pasteText(EMPTY_INPUT, "\udc00half")]) {
      expect(field.value.isWellFormed()).toBe(true);
      expect(field.value).toContain("\ufffd");
    }
  });

  it("holds the fields' text one byte a character (UTF-8 bytes), whatever characters the fields hold", () => {
    const made = vi.mocked(fieldText.rankingContext);
    made.mockClear();
    const ctx = listContext(sessions);
    const q = parseQuery("会话");
    expect(sessions.map((s) => matchSession(q, s, ctx))).toEqual(sessions.map((s) => matchSession(q, s)));
    const text = made.mock.calls[0][0].text;
    expect(text).toContain(Buffer.from("会话").toString("latin1"));
    // Past U+00FF anywhere, V8 holds the whole text two bytes a character.
    expect([...text].every((c) => c.charCodeAt(0) <= 0xff)).toBe(true);
    // The list's rows, a session's fields read back from the text: what its own fields rank.
    const map: SessionMap = new Map(
      sessions.map((s, i) => [`/store/--p--/${i}.jsonl`, { ...s, path: `/store/--p--/${i}.jsonl` }]),
    );
    for (const typed of ["会话", "grüße", '"会话 ✅"', "naïve 研究", "🚀", "\ufffd", "half", '"lone \ufffd"']) {
      const q = parseQuery(typed);
      const rows = deriveRows(map, { scope: "all", cwd: "/", storeDir: "/store", query: q, sort: "recent" }).rows;
      const own = [...map.values()].filter((s) => matchSession(q, s) !== null).map((s) => s.path);
      expect(rows.map((r) => r.session.path).sort(), typed).toEqual(own.sort());
    }
  });

  it("ranks every session as its own fields do when their bytes are too many for a string (the text then holds the parts as text)", () => {
    const made = vi.mocked(fieldText.rankingContext);
    const list = [...sessions]; // a list no text was made of yet
    bytesLimit.value = fieldText.fieldTextOf(list).text.length;
    try {
      for (const typed of TYPED)
        for (const text of prefixes(typed)) {
          const q = parseQuery(text);
          made.mockClear();
          const ctx = listContext(list);
          list.forEach((s, i) => expect(matchSession(q, s, ctx), `${text} / session ${i}`).toBe(matchSession(q, s)));
          if (made.mock.calls.length > 0) expect(made.mock.calls[0][0].text).toContain("会话");
        }
    } finally {
      bytesLimit.value = undefined;
    }
  });

  it("ranks a session of another list by its own fields", () => {
    const other = makeSummary({ firstMessage: "parser" });
    const q = parseQuery("parser");
    expect(matchSession(q, other, listContext(sessions))).toBe(matchSession(q, other));
  });

  it("takes the fields of the sessions a changed store still holds from the text before, and folds the new ones", () => {
    let reads = 0;
    const counted = (s: ReturnType<typeof makeSummary>) => {
      const first = s.firstMessage;
      return Object.defineProperty(s, "firstMessage", { get: () => (reads++, first) });
    };
    const before = [0, 1, 2, 3].map((i) => counted(makeSummary({ firstMessage: `parser ${i}` })));
    const q = parseQuery("parser");
    before.forEach((s) => matchSession(q, s, listContext(before)));
    // pi wrote to the second (a new object), and a session came.
    const after = [before[0], makeSummary({ firstMessage: "cache" }), before[2], before[3], makeSummary({ name: "x" })];
    reads = 0;
    const ctx = listContext(after);
    for (const typed of ["parser", "cache", "x", "3"])
      after.forEach((s) => expect(matchSession(parseQuery(typed), s, ctx)).toBe(matchSession(parseQuery(typed), s)));
    // Only the ranks asked of its own fields above (matchSession without the context) read them.
    expect(reads).toBe(3 * 4);
  });

  it("reads each session's fields once, however many words are typed: a word in none is not looked for field by field", () => {
    let reads = 0;
    const counted = Array.from({ length: 50 }, (_, i) => {
      const s = makeSummary({ path: `/store/--p--/${i}.jsonl`, firstMessage: `message ${i}` });
      let first = s.firstMessage;
      return Object.defineProperty(s, "firstMessage", {
        get: () => (reads++, first),
        set: (v: string) => (first = v),
      });
    });
    const map: SessionMap = new Map(counted.map((s) => [s.path, s]));
    const derive = (q: string) =>
      deriveRows(map, { scope: "all", cwd: "/", storeDir: "/store", query: parseQuery(q), sort: "recent" });
    derive("z");
    const once = reads;
    expect(once).toBeGreaterThanOrEqual(counted.length);
    const word = "zebra-never-said";
    for (let n = 2; n <= word.length; n++) expect(derive(word.slice(0, n)).rows).toEqual([]);
    expect(reads).toBe(once);
  });

  it("folds each session's fields once for a word with a capital or a spaced phrase typed key by key, not at every key", () => {
    const list = Array.from({ length: 50 }, (_, i) =>
      makeSummary({
        path: `/store/--p--/${i}.jsonl`,
        firstMessage: i % 10 === 0 ? `a Zebra  never ${i}` : `message ${i}`,
        name: i % 7 === 0 ? `zebra café ${i}` : undefined,
      }),
    );
    const map: SessionMap = new Map(list.map((s) => [s.path, s]));
    const derive = (q: ReturnType<typeof parseQuery>) =>
      deriveRows(map, { scope: "all", cwd: "/", storeDir: "/store", query: q, sort: "recent" });
    derive(parseQuery("z"));
    const folds = vi.mocked(fold.foldAccents);
    for (const typed of ['"zebra never"', "Zebra"]) {
      // Parsed first: only the folds of the sessions' fields are counted.
      const prefixes = Array.from({ length: typed.length }, (_, n) => parseQuery(typed.slice(0, n + 1)));
      folds.mockClear();
      const rows = prefixes.map((q) => derive(q).rows.map((r) => r.session.path));
      expect(folds.mock.calls.length, typed).toBeLessThanOrEqual(list.length * 4);
      // What each session's own fields rank it, key by key.
      prefixes.forEach((q, n) => {
        const own = list.filter((s) => matchSession(q, s) !== null).map((s) => s.path);
        expect(rows[n].slice().sort(), `${typed.slice(0, n + 1)}`).toEqual(own.sort());
      });
    }
  });

  it("looks for a spaced phrase field by field only in the sessions whose fields hold each of its words", () => {
    const list = Array.from({ length: 50 }, (_, i) =>
      makeSummary({
        path: `/store/--p--/${i}.jsonl`,
        firstMessage: i % 10 === 0 ? `a Zebra \n never ${i}` : i % 10 === 1 ? `zebra, never ${i}` : `message ${i}`,
      }),
    );
    const ctx = listContext(list);
    // The field text made (each session folded once).
    list.forEach((s) => matchSession(parseQuery("x"), s, ctx));
    const folds = vi.mocked(fold.foldAccents);
    const typed = '"zebra never" "message  1" "never 4"';
    for (let n = 1; n <= typed.length; n++) {
      const q = parseQuery(typed.slice(0, n));
      const own = list.map((s) => matchSession(q, s));
      folds.mockClear();
      expect(list.map((s) => matchSession(q, s, ctx))).toEqual(own);
      // Those holding every word have their fields from the field text: none is folded again.
      expect(folds.mock.calls.length, typed.slice(0, n)).toBe(0);
    }
  });

  it("asks one word of a pasted sentence in quotes, not each: more words than a context keeps would make one per session", () => {
    const sentence = Array.from({ length: 40 }, (_, i) => `word${i}x`).join(" ");
    const list = Array.from({ length: 50 }, (_, i) =>
      makeSummary({
        path: `/store/--p--/${i}.jsonl`,
        firstMessage: i % 5 === 0 ? `said: ${sentence}` : `message ${i}`,
      }),
    );
    const ctx = listContext(list);
    const made = vi.mocked(fieldText.rankingContext);
    made.mockClear();
    const q = parseQuery(`"${sentence}"`);
    expect(list.map((s) => matchSession(q, s, ctx))).toEqual(list.map((s) => matchSession(q, s)));
    expect(made.mock.calls.length).toBe(1);
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbFields, arbQuery, arbText } from "../../test/helpers/search-arbitraries.js";
import {
  asFieldBytes,
  fieldBytesOf,
  fieldTextAgain,
  fieldTextOf,
  fieldTextParts,
  rankingContext,
} from "./field-text.js";
import { foldedField, matchSession, parseQuery, type Searchable } from "./query.js";

const session = (over: Partial<Searchable> = {}): Searchable => ({
  firstMessage: "fix the login",
  cwd: "/home/kim/api",
  id: "019e-aaaa",
  models: [],
  labelCount: 0,
  modified: new Date("2026-11-20T10:00:00.000Z"),
  ...over,
});

describe("field text", () => {
  it("names the sessions whose folded fields hold a word, and rules out the others", () => {
    const sessions = [
      session({ name: "Naïve Auth", firstMessage: "x" }),
      session({ firstMessage: "the KEYBOARD" }),
      session({ cwd: "/srv/Café" }),
      session({ id: "019e-bbbb" }),
    ];
    const { mayHold } = rankingContext(fieldTextOf(sessions), sessions)!;
    expect(sessions.map((s) => mayHold("naive", s))).toEqual([true, false, false, false]);
    expect(sessions.map((s) => mayHold("keyboard", s))).toEqual([false, true, false, false]);
    expect(sessions.map((s) => mayHold("cafe", s))).toEqual([false, false, true, false]);
    expect(sessions.map((s) => mayHold("bbbb", s))).toEqual([false, false, false, true]);
    // A session it was not made of is never ruled out.
    expect(mayHold("zebra", session())).toBe(true);
  });

  it("gives a holder's fields folded, unless a field holds a separator itself", () => {
    const sessions = [
      session({ name: "Ünder", firstMessage: "The KEY" }),
      session({ firstMessage: "key\u0001x" }),
      session({ firstMessage: "nothing" }),
    ];
    const ctx = rankingContext(fieldTextOf(sessions), sessions)!;
    expect(ctx.foldedOf(sessions[0])).toBeUndefined(); // asked of no word yet
    expect(sessions.map((s) => ctx.mayHold("key", s))).toEqual([true, true, false]);
    expect(ctx.foldedOf(sessions[0])).toEqual(["under", "the key", "/home/kim/api", "019e-aaaa"]);
    expect(ctx.foldedOf(sessions[1])).toBeUndefined();
    expect(ctx.foldedOf(sessions[2])).toBeUndefined();
  });

  it("says whether a holder's name holds a word from where its part holds it, and ranks a holder elsewhere without splitting its fields", () => {
    const sessions = [
      session({ name: "Key Board", firstMessage: "the keyboard" }),
      session({ name: "other", firstMessage: "a Keyboard" }),
      session({ name: "x\u0001keyboard", firstMessage: "keyboard" }),
      session({ name: "other", cwd: "/keyboard" }),
      session({ firstMessage: "nothing" }),
    ];
    const ctx = rankingContext(fieldTextOf(sessions), sessions)!;
    expect(sessions.map((s) => ctx.nameHolds("keyboard", s))).toEqual([false, false, undefined, false, undefined]);
    expect(sessions.map((s) => ctx.nameHolds("key", s))).toEqual([true, false, undefined, false, undefined]);
    const split = new Set<Searchable>();
    const counted = {
      ...ctx,
      foldedOf: (s: Searchable) => {
        split.add(s);
        return ctx.foldedOf(s);
      },
    };
    const query = parseQuery("keyboard");
    expect(sessions.map((s) => matchSession(query, s, counted))).toEqual(sessions.map((s) => matchSession(query, s)));
    // Split only for the session whose name holds a separator (where the name ends is not known).
    expect([...split]).toEqual([sessions[2]]);
  });

  it("ranks a holder by its folded fields without reading its own (a kept row makes its first message when read)", () => {
    const sessions = [session({ name: "Ünder", firstMessage: "The KEY" }), session({ firstMessage: "nothing" })];
    const ctx = rankingContext(fieldTextOf(sessions), sessions)!;
    const query = parseQuery("key");
    const expected = sessions.map((s) => matchSession(query, s, ctx));
    const unread = sessions.map((s) =>
      Object.defineProperty({ ...s }, "firstMessage", {
        get: () => {
          throw new Error("the first message was read");
        },
      }),
    );
    const ctxOfUnread = rankingContext(fieldTextOf(sessions), unread)!;
    expect(unread.map((s) => matchSession(query, s, ctxOfUnread))).toEqual(expected);
    expect(expected[0]).not.toBeNull();
  });

  it("is not used for other sessions, or when its lengths do not add up", () => {
    const sessions = [session(), session({ name: "b" })];
    const ft = fieldTextOf(sessions);
    expect(rankingContext(ft, sessions.slice(1))).toBeUndefined();
    expect(rankingContext({ ...ft, lengths: [ft.lengths[0] + 1, ft.lengths[1]] }, sessions)).toBeUndefined();
    expect(rankingContext({ ...ft, lengths: [ft.lengths[0], -1] }, sessions)).toBeUndefined();
    expect(rankingContext({ text: "", lengths: [] }, [])).toBeDefined();
  });

  const text = arbText("abAB éÉıİ-_/.\t\n\u0000\u0001", 8);
  const arbSession = arbFields(text);

  it("rules a session out only when none of its folded fields holds the text", () => {
    fc.assert(
      fc.property(fc.array(arbSession, { maxLength: 6 }), text, (parts, word) => {
        const sessions = parts.map((p) => session(p));
        const { mayHold } = rankingContext(fieldTextOf(sessions), sessions)!;
        for (const s of sessions) {
          const held = [s.name ?? "", s.firstMessage, s.cwd, s.id].some((f) => foldedField(f).includes(word));
          if (held) expect(mayHold(word, s)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("still lets a word match by letters scattered over a folder or a name it does not hold", () => {
    const sessions = [session({ cwd: "/srv/key-board" }), session({ name: "Key Board" })];
    const ctx = rankingContext(fieldTextOf(sessions), sessions)!;
    const q = parseQuery("keyboard");
    for (const s of sessions) {
      expect(ctx.mayHold("keyboard", s)).toBe(false);
      expect(matchSession(q, s, ctx)).toBe(matchSession(q, s));
      expect(matchSession(q, s, ctx)).not.toBeNull();
    }
  });

  it("leaves a phrase with a space to the fields (white space in them may stand for it)", () => {
    const sessions = [session({ firstMessage: "fix\tthe  login" })];
    const { mayHold } = rankingContext(fieldTextOf(sessions), sessions)!;
    const q = parseQuery('"the login"');
    expect(matchSession(q, sessions[0], { mayHold })).toBe(matchSession(q, sessions[0]));
    expect(matchSession(q, sessions[0], { mayHold })).not.toBeNull();
  });

  it("ranks every session as matchSession does without it", () => {
    const query = arbQuery(text);
    fc.assert(
      fc.property(fc.array(arbSession, { maxLength: 6 }), query, (parts, q) => {
        const sessions = parts.map((p) => session(p));
        const ctx = rankingContext(fieldTextOf(sessions), sessions)!;
        const parsed = parseQuery(q);
        for (const s of sessions) expect(matchSession(parsed, s, ctx)).toBe(matchSession(parsed, s));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("a field text made again of sessions partly known", () => {
  const sessions = [
    { name: "Auth Refactor", firstMessage: "Fix the Login", cwd: "/p/Ü", id: "019e-a" },
    { name: undefined, firstMessage: "naïve", cwd: "/q", id: "019e-b" },
    { name: "", firstMessage: "x", cwd: "/r", id: "019e-c" },
  ] as unknown as Searchable[];

  it("takes the parts it is given and folds only the others: the same text as folding them all", () => {
    const parts = fieldTextParts(fieldTextOf(sessions), sessions)!;
    expect([...parts.values()]).toEqual([
      "auth refactor\u0001fix the login\u0001/p/u\u0001019e-a",
      "\u0001naive\u0001/q\u0001019e-b",
      "\u0001x\u0001/r\u0001019e-c",
    ]);
    const reordered = [sessions[2], sessions[0], sessions[1]];
    const asked: Searchable[] = [];
    const made = fieldTextOf(reordered, (s) => {
      asked.push(s);
      return s === sessions[1] ? undefined : parts.get(s);
    });
    expect(made).toEqual(fieldTextOf(reordered));
    expect(asked).toEqual(reordered);
    // A part given is used as it is, not folded again.
    expect(fieldTextOf([sessions[0]], () => "kept").text).toBe("kept");
  });

  it("has no parts for sessions that are not the field text's", () => {
    expect(fieldTextParts(fieldTextOf(sessions), sessions.slice(1))).toBeUndefined();
  });
});

describe("a field text as bytes", () => {
  // Whole characters (a pair is never cut), some past Latin-1 and past the BMP.
  const text = fc
    .array(fc.constantFrom("a", "b", "A", "é", "İ", "函", "🚀", "-", " ", "\u0000", "\u0001"), { maxLength: 8 })
    .map((a) => a.join(""));
  const arbSession = arbFields(text);

  it("is the text's UTF-8, each part's length in bytes; none for a text that is not well-formed", () => {
    const sessions = [session({ name: "Naïve 🚀", firstMessage: "函数" }), session()];
    const ft = fieldTextOf(sessions);
    const fb = fieldBytesOf(sessions)!;
    expect(fb.bytes).toEqual(Buffer.from(ft.text, "utf8"));
    expect([...fb.lengths]).toEqual(ft.text.split("\u0000").map((p) => Buffer.byteLength(p)));
    expect(asFieldBytes(ft)).toEqual(fb);
    expect(fieldBytesOf([session({ firstMessage: "a \ud800 b" })])).toBeUndefined();
    expect(asFieldBytes(fieldTextOf([session({ firstMessage: "a \ud800 b" })]))).toBeUndefined();
  });

  it("says where words are held as the text does, and ranks every session as matchSession does", () => {
    fc.assert(
      fc.property(fc.array(arbSession, { maxLength: 6 }), arbQuery(text), text, (parts, q, word) => {
        const sessions = parts.map((p) => session(p));
        const bytes = rankingContext(fieldBytesOf(sessions)!, sessions)!;
        const plain = rankingContext(fieldTextOf(sessions), sessions)!;
        if (word) expect([...bytes.whereHeld(word)]).toEqual([...plain.whereHeld(word)]);
        const parsed = parseQuery(q);
        for (const s of sessions) {
          expect(matchSession(parsed, s, bytes)).toBe(matchSession(parsed, s));
          expect(matchSession(parsed, s, plain)).toBe(matchSession(parsed, s));
        }
        // Asked of the same words, the same holders' fields.
        for (const s of sessions) expect(bytes.foldedOf(s)).toEqual(plain.foldedOf(s));
      }),
      { numRuns: 2000 },
    );
  });

  it("rules out no session for a word with a lone half of a pair (its UTF-8 cannot say where it is)", () => {
    const sessions = [session({ firstMessage: "🚀" }), session()];
    const ctx = rankingContext(fieldBytesOf(sessions)!, sessions)!;
    expect(sessions.map((s) => ctx.mayHold("\ud83d", s))).toEqual([true, true]);
    const q = parseQuery("\ud83d");
    for (const s of sessions) expect(matchSession(q, s, ctx)).toBe(matchSession(q, s));
  });

  it("is made again of sessions partly known as a fresh fold of them all is", () => {
    const kept = [session({ name: "Auth", firstMessage: "Fix 🚀" }), session({ firstMessage: "naïve" })];
    const fresh = session({ firstMessage: "Nouveau 函数" });
    const all = [fresh, kept[1], kept[0]];
    const again = fieldTextAgain(fieldBytesOf(kept)!, kept, all)!;
    expect(again).toEqual(fieldBytesOf(all));
    // A new part that is not well-formed: the whole as text.
    const odd = session({ firstMessage: "a \ud800" });
    expect(fieldTextAgain(fieldBytesOf(kept)!, kept, [odd, ...kept])).toEqual(fieldTextOf([odd, ...kept]));
    // Of text kept, as text; of other sessions, none.
    expect(fieldTextAgain(fieldTextOf(kept), kept, all)).toEqual(fieldTextOf(all));
    expect(fieldTextAgain(fieldBytesOf(kept)!, kept.slice(1), all)).toBeUndefined();
  });

  it("takes a kept row's part from the kept field text, not from folding the row again", () => {
    // Kept parts that differ from their rows' own fold: a result that holds them was taken from
    // the kept value; the new row's part is folded fresh.
    const kept = [session({ name: "Auth", firstMessage: "Fix 🚀" }), session({ firstMessage: "naïve" })];
    const keptParts = kept.map((s) => ({ ...s, firstMessage: "x 函" }));
    const fresh = session({ firstMessage: "Nouveau 函数" });
    const all = [fresh, kept[1], kept[0]];
    const want = [fresh, keptParts[1], keptParts[0]];
    expect(fieldTextAgain(fieldBytesOf(keptParts)!, kept, all)).toEqual(fieldBytesOf(want));
    // A new part that is not well-formed: the whole as text, the kept parts still theirs.
    const odd = session({ firstMessage: "a \ud800" });
    expect(fieldTextAgain(fieldBytesOf(keptParts)!, kept, [odd, ...kept])).toEqual(fieldTextOf([odd, ...keptParts]));
    // Kept as text (UTF-16): the same.
    expect(fieldTextAgain(fieldTextOf(keptParts), kept, all)).toEqual(fieldTextOf(want));
    expect(fieldTextAgain(fieldTextOf(keptParts), kept, [odd, ...kept])).toEqual(fieldTextOf([odd, ...keptParts]));
  });
});

import { describe, expect, it } from "vitest";
import fc from "fast-check";
import stripAnsi from "strip-ansi";
import { terminalColumns } from "../../test/helpers/terminal-columns.js";
import {
  displayWidth,
  mayHoldFormat,
  padToWidth,
  sanitizeLine,
  sanitizeMultiline,
  truncatePathToWidth,
  truncateStartToWidth,
  truncateToWidth,
  wrapToWidth,
} from "./sanitize.js";

describe("sanitizeLine", () => {
  it("removes CSI, OSC and other escape sequences", () => {
    expect(sanitizeLine("\x1b[31mred\x1b[0m")).toBe("red");
    expect(sanitizeLine("a\x1b]0;title\x07b")).toBe("ab");
    expect(sanitizeLine("a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b")).toBe("alinkb");
    expect(sanitizeLine("\x1b[?1049lescaped")).toBe("escaped");
  });
  it("removes C0, C1 and DEL, and turns tabs and newlines into spaces", () => {
    expect(sanitizeLine("a\x00b\x07c\x7fd\x85e")).toBe("abcde");
    // 8-bit CSI is a whole sequence, like ESC [
    expect(sanitizeLine("a\x9b31mb")).toBe("ab");
    expect(sanitizeLine("one\ttwo\nthree\r\nfour\rfive")).toBe("one two three four five");
  });
  it("removes a lone ESC and bidi overrides", () => {
    expect(sanitizeLine("x\x1b")).toBe("x");
    expect(sanitizeLine("x\x1b\x1b[31my")).toBe("xy");
    expect(sanitizeLine("a\u202eb")).toBe("ab");
  });
  it("keeps unicode text", () => {
    expect(sanitizeLine("日本語 é 👍")).toBe("日本語 é 👍");
    expect(sanitizeLine("")).toBe("");
  });
  it("gives what each removal in turn gives, whichever shortcut it takes", () => {
    // The passes as they are written out, one after another, without the shortcuts.
    const reference = (s: string) =>
      stripAnsi(s.replace(/\r\n?|\n|\t/g, " "))
        .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "")
        .replace(/[\u202a-\u202e\u2066-\u2069]/g, "")
        .replace(/[\p{Cf}\ufe00-\ufe0f\u{e0100}-\u{e01ef}\u{1f3fb}-\u{1f3ff}]/gu, "")
        .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
    const pieces = [
      "a",
      " ",
      "é",
      "日",
      "👍",
      "\u200d",
      "\ufe0f",
      "\u{1f3fb}",
      "\u202e",
      "\u2066",
      "\ud83d",
      "\ude00",
      "\udc80",
      "\t",
      "\n",
      "\x07",
      "\x1b[31m",
      "\x85",
      "\u00ad",
      // Format characters beyond the BMP (a tag, a musical symbol's format control, Kaithi's number sign).
      "\u{e0041}",
      "\u{1d173}",
      "\u{110bd}",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
        const s = parts.join("");
        expect(sanitizeLine(s)).toBe(reference(s));
      }),
      { numRuns: 3000 },
    );
    // Every character of the BMP, between two letters (one past it: a character in the shortcut's
    // list or not is all the same to the answer).
    for (let c = 0; c <= 0xffff; c++) {
      const s = `a${String.fromCharCode(c)}b`;
      if (sanitizeLine(s) !== reference(s))
        expect([c.toString(16), sanitizeLine(s)]).toEqual([c.toString(16), reference(s)]);
    }
    // A joiner between two halves of a pair: removed, and the halves then make one character.
    expect(sanitizeLine("\ud83d\u200b\ude00")).toBe("\ud83d\ude00");
  });
});

describe("mayHoldFormat", () => {
  it("says yes for every text sanitizing would change by a format character or half a pair", () => {
    const changes = (s: string) =>
      /[\p{Cf}\ufe00-\ufe0f\u{e0100}-\u{e01ef}\u{1f3fb}-\u{1f3ff}]/u.test(s) || !s.isWellFormed();
    // Every code unit (halves of pairs alone among them), then every code point past them.
    for (let c = 0; c <= 0x10ffff; c++) {
      const s = `a${c <= 0xffff ? String.fromCharCode(c) : String.fromCodePoint(c)}b`;
      if (changes(s) && !mayHoldFormat(s)) expect(c.toString(16)).toBe("held by mayHoldFormat");
    }
    for (const s of ["\u{e0041}", "\u{1d173}", "\u{110bd}", "\u{1f3fb}", "\u{e0100}", "x\u200dy", "\ud83d"])
      expect(mayHoldFormat(s)).toBe(true);
    for (const s of ["日本語 é 👍", "naïve", "", "plain"]) expect(mayHoldFormat(s)).toBe(false);
    // Emoji of U+1F300–1F3FF share their first half with the skin tones: only a tone is one.
    for (const s of ["caf🎉 🏠 🌟", "🏺"]) expect(mayHoldFormat(s)).toBe(false);
    for (const s of ["🎉 🏠\u{1f3fb}", "👋🏿", "🎉\u200d🏠"]) expect(mayHoldFormat(s)).toBe(true);
  });
});

describe("sanitizeMultiline", () => {
  it("keeps newlines, normalises CR and removes escapes", () => {
    expect(sanitizeMultiline("a\r\nb\rc\n\x1b[2Jd\te")).toBe("a\nb\nc\nd  e");
  });
});

describe("width helpers", () => {
  it("measures wide and combining characters", () => {
    expect(displayWidth("abc")).toBe(3);
    expect(displayWidth("日本")).toBe(4);
    expect(displayWidth("e\u0301")).toBe(1);
    expect(displayWidth("👍")).toBe(2);
  });
  it("truncates by columns with an ellipsis", () => {
    expect(truncateToWidth("hello world", 5)).toBe("hell…");
    expect(truncateToWidth("hello", 5)).toBe("hello");
    expect(truncateToWidth("日本語テキスト", 7)).toBe("日本語…");
    expect(displayWidth(truncateToWidth("日本語テキスト", 6))).toBeLessThanOrEqual(6);
    expect(truncateToWidth("e\u0301e\u0301e\u0301e\u0301", 3)).toBe("e\u0301e\u0301…");
    expect(truncateToWidth("👍👍👍", 4)).toBe("👍…");
    expect(truncateToWidth("abc", 0)).toBe("");
    expect(truncateToWidth("abc", 1)).toBe("…");
  });
  it("truncates from the start", () => {
    expect(truncateStartToWidth("/home/user/project", 8)).toBe("…project");
    expect(truncateStartToWidth("/a", 8)).toBe("/a");
  });
  it("pads to an exact width", () => {
    expect(padToWidth("ab", 4)).toBe("ab  ");
    expect(padToWidth("ab", 4, "right")).toBe("  ab");
    expect(padToWidth("日本", 5)).toBe("日本 ");
    expect(padToWidth("abcdef", 4)).toBe("abc…");
  });
  it("wraps words and hard-breaks long ones", () => {
    expect(wrapToWidth("the quick brown fox", 10)).toEqual(["the quick", "brown fox"]);
    expect(wrapToWidth("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
    expect(wrapToWidth("a\n\nb", 4)).toEqual(["a", "", "b"]);
    expect(wrapToWidth("日本語テキスト", 4)).toEqual(["日本", "語テ", "キス", "ト"]);
    for (const l of wrapToWidth("日本語 and english mixed 👍👍 text", 7))
      expect(displayWidth(l)).toBeLessThanOrEqual(7);
  });
});

describe("truncateToWidth fast path (no escapes)", () => {
  // The reference: measure the whole string, then cut grapheme by grapheme.
  const seg = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  function reference(s: string, width: number, ellipsis = "…"): string {
    if (width <= 0) return "";
    if (displayWidth(s) <= width) return s;
    const budget = width - displayWidth(ellipsis);
    if (budget < 0) return "";
    let used = 0;
    let out = "";
    for (const { segment } of seg.segment(s)) {
      const w = displayWidth(segment);
      if (used + w > budget) break;
      out += segment;
      used += w;
    }
    return out + ellipsis;
  }
  const pieces = ["a", "é", "e\u0301", "日", "本", "👍", "👨‍👩‍👧", "\u200b", " ", "한", "🇩🇪", "x"];
  it("agrees with measuring the whole string", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 40 }),
        fc.nat(30),
        fc.constantFrom("…", "...", ""),
        (parts, width, ell) => {
          const s = parts.join("");
          fc.pre(!/^[\x20-\x7e]*$/.test(s)); // plain ASCII has its own path
          expect(truncateToWidth(s, width, ell)).toBe(reference(s, width, ell));
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe("truncatePathToWidth", () => {
  it("keeps the whole path when it fits", () => {
    expect(truncatePathToWidth("/home/kim/code/x", 30)).toBe("/home/kim/code/x");
  });
  it("drops leading folders, never cutting a name in the middle", () => {
    expect(truncatePathToWidth("/Users/kim/code/研究", 14)).toBe("…/code/研究");
    expect(truncatePathToWidth("/Users/kim/code/研究", 8)).toBe("…/研究");
    expect(truncatePathToWidth("/a/b/session-file-name.jsonl", 25)).toBe("…/session-file-name.jsonl");
    expect(truncatePathToWidth("/a/b/session-file-name.jsonl", 24)).toBe("session-file-name.jsonl");
  });
  it("cuts a last name wider than the room at its end", () => {
    expect(truncatePathToWidth("/a/very-long-folder-name", 8)).toBe("very-lo…");
  });
});

describe("sanitized text lines up in any terminal", () => {
  const tricky = [
    "👩‍👩‍👧 family",
    "🏳️‍🌈 flag",
    "❤️ heart",
    "👍🏽 thumbs",
    "a\u200bb zero width space",
    "a\u2060b word joiner",
    "soft\u00adhyphen",
    "\ufeffbom",
    "tag\u{e0041}s",
  ];
  it.each(tricky)("%j: our width is the terminal's, code point by code point", (s) => {
    const clean = sanitizeLine(s);
    expect(displayWidth(clean)).toBe(terminalColumns(clean));
    expect(clean).not.toMatch(/[\u200b-\u200f\u2060-\u2064\ufeff\u00ad\ufe0f]/);
  });
  it("keeps the emoji of a ZWJ sequence, side by side", () => {
    expect(sanitizeLine("👩‍👩‍👧")).toBe("👩👩👧");
    expect(sanitizeLine("❤️")).toBe("❤");
  });
  it("keeps combining marks, CJK and plain emoji", () => {
    expect(sanitizeLine("e\u0301 日本 🚀")).toBe("e\u0301 日本 🚀");
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTokenizer, type Token, tokenizeReads } from "./tokenizer.js";

const keys = (...seqs: string[]): Token[] => seqs.map((seq) => ({ kind: "key", seq }));
const paste = (text: string): Token => ({ kind: "paste", text });

const ESC = "\x1b";

describe("tokenizer: one read → the keys a terminal sent one by one", () => {
  it("every control byte is a key of its own, also inside printable text", () => {
    for (let c = 0; c < 0x20; c++) {
      if (c === 0x1b) continue;
      const ch = String.fromCharCode(c);
      expect(tokenizeReads([`a${ch}b`])).toEqual(keys("a", ch, "b"));
    }
    expect(tokenizeReads(["x\x7fy"])).toEqual(keys("x", "\x7f", "y"));
  });

  it("the issue's bursts: search text, Enter, Enter; ab, two Backspaces, xy; Ctrl+R, text, Enter", () => {
    expect(tokenizeReads(["/huge tool\r\r"])).toEqual(keys(..."/huge tool".split(""), "\r", "\r"));
    expect(tokenizeReads(["ab\x7f\x7fxy"])).toEqual(keys("a", "b", "\x7f", "\x7f", "x", "y"));
    expect(tokenizeReads(["\x12Typed fast\r"])).toEqual(keys("\x12", ..."Typed fast".split(""), "\r"));
  });

  it("printable text is one key per code point: non-BMP characters stay whole", () => {
    expect(tokenizeReads(["é🚀研"])).toEqual(keys("é", "🚀", "研"));
  });

  it("CSI sequences: arrows, editing keys, modifiers, Shift+Tab, kitty CSI u", () => {
    const seqs = [
      "\x1b[A",
      "\x1b[B",
      "\x1b[C",
      "\x1b[D",
      "\x1b[H",
      "\x1b[F",
      "\x1b[3~",
      "\x1b[5~",
      "\x1b[6~",
      "\x1b[1;2A",
      "\x1b[1;5C",
      "\x1b[Z",
      "\x1b[15~",
      "\x1b[97;5u",
    ];
    expect(tokenizeReads([seqs.join("") + "j"])).toEqual(keys(...seqs, "j"));
  });

  it("SS3 sequences, with and without parameters", () => {
    const seqs = ["\x1bOA", "\x1bOH", "\x1bOP", "\x1bO2P", "\x1bO1;5A"];
    expect(tokenizeReads([seqs.join("") + "k"])).toEqual(keys(...seqs, "k"));
  });

  it("legacy ESC [ [ function keys and rxvt's $ and ^ keys end where they end", () => {
    const seqs = [
      "\x1b[[A",
      "\x1b[[E",
      "\x1b[2$",
      "\x1b[3$",
      "\x1b[8$",
      "\x1b[2^",
      "\x1b[11^",
      "\x1b[23$",
      "\x1b[24$",
      "\x1b[23@",
    ];
    for (const s of seqs) expect(tokenizeReads([s + "q"]), JSON.stringify(s)).toEqual(keys(s, "q"));
  });

  it("Alt+key is ESC and one code point; Alt+arrow as ESC ESC [ A; Alt+Escape", () => {
    expect(tokenizeReads(["\x1bj\x1bJ\x1b\x7f\x1b\r"])).toEqual(keys("\x1bj", "\x1bJ", "\x1b\x7f", "\x1b\r"));
    expect(tokenizeReads(["\x1b\x1b[Ax"])).toEqual(keys("\x1b\x1b[A", "x"));
    expect(tokenizeReads(["\x1b\x1bq"])).toEqual(keys("\x1b\x1b", "q"));
    expect(tokenizeReads(["\x1b🚀"])).toEqual(keys("\x1b🚀"));
  });

  it("a broken sequence ends before the stray byte, which is a key of its own", () => {
    expect(tokenizeReads(["\x1b[1\rx"])).toEqual(keys("\x1b[1", "\r", "x"));
    expect(tokenizeReads(["\x1bO\x03"])).toEqual(keys("\x1bO", "\x03"));
  });
});

describe("tokenizer: state across reads", () => {
  it("a lone ESC is held until a pause (flush) says it was the Escape key", () => {
    const t = createTokenizer();
    expect(t.push("ab\x1b")).toEqual(keys("a", "b"));
    expect(t.pending()).toBe(true);
    expect(t.flush()).toEqual(keys(ESC));
    expect(t.pending()).toBe(false);
    expect(t.flush()).toEqual([]);
  });

  it("ESC then more input before the pause is one key (the terminal's Alt or a sequence)", () => {
    const t = createTokenizer();
    expect(t.push("\x1b")).toEqual([]);
    expect(t.push("[")).toEqual([]);
    expect(t.push("1;5")).toEqual([]);
    expect(t.push("Cz")).toEqual(keys("\x1b[1;5C", "z"));
    expect(t.pending()).toBe(false);
  });

  it("every sequence cut at every point gives the same keys as in one read", () => {
    const seqs = [
      "\x1b[A",
      "\x1b[1;2B",
      "\x1bOP",
      "\x1b[[A",
      "\x1b[2$",
      "\x1b[23$",
      "\x1b[3~",
      "\x1b\x1b[D",
      "\x1bj",
      "\x1b🚀",
      "\x1b[97;5u",
    ];
    for (const s of seqs) {
      const whole = s + "x";
      for (let cut = 1; cut < whole.length; cut++) {
        const t = createTokenizer();
        const got = [...t.push(whole.slice(0, cut)), ...t.push(whole.slice(cut))];
        expect(got, `${JSON.stringify(s)} cut at ${cut}`).toEqual(keys(s, "x"));
      }
    }
  });

  it("a flushed incomplete sequence is passed on as it is", () => {
    const t = createTokenizer();
    expect(t.push("\x1b[1;")).toEqual([]);
    expect(t.flush()).toEqual(keys("\x1b[1;"));
  });

  it("a surrogate pair cut between two reads is one key", () => {
    const [hi, lo] = "🚀".split("");
    const t = createTokenizer();
    expect(t.push("a" + hi)).toEqual(keys("a"));
    expect(t.pending()).toBe(true);
    expect(t.push(lo + "b")).toEqual(keys("🚀", "b"));
    // Alt+🚀, cut inside the pair.
    const u = createTokenizer();
    expect(u.push("\x1b" + hi)).toEqual([]);
    expect(u.push(lo)).toEqual(keys("\x1b🚀"));
  });

  it("a lone low surrogate, or a high one at a pause, is passed on rather than held forever", () => {
    const [hi, lo] = "🚀".split("");
    expect(tokenizeReads([lo + "a"])).toEqual(keys(lo, "a"));
    const t = createTokenizer();
    expect(t.push(hi)).toEqual([]);
    expect(t.flush()).toEqual(keys(hi));
  });
});

describe("tokenizer: bracketed paste", () => {
  const START = "\x1b[200~";
  const END = "\x1b[201~";

  it("a paste is one token: its Enter, Tab, ESC and control bytes are text, never keys", () => {
    expect(tokenizeReads([`a${START}x\r\ty\x1b[Az\x03${END}b`])).toEqual([
      ...keys("a"),
      paste("x\r\ty\x1b[Az\x03"),
      ...keys("b"),
    ]);
    expect(tokenizeReads([START + END])).toEqual([paste("")]);
  });

  it("a paste spanning reads stays open across a pause and ends at the end marker", () => {
    const t = createTokenizer();
    expect(t.push(START + "/huge")).toEqual([]);
    expect(t.flush()).toEqual([]);
    expect(t.push(" tool\r")).toEqual([]);
    expect(t.push("\r" + END + "q")).toEqual([paste("/huge tool\r\r"), ...keys("q")]);
  });

  it("both markers cut at every point give the same tokens", () => {
    const whole = `j${START}ab\rc${END}k`;
    const want = [...keys("j"), paste("ab\rc"), ...keys("k")];
    for (let a = 1; a < whole.length; a++) {
      for (let b = a; b < whole.length; b++) {
        const got = tokenizeReads([whole.slice(0, a), whole.slice(a, b), whole.slice(b)]);
        expect(got, `cut at ${a}, ${b}`).toEqual(want);
      }
    }
  });

  it("text that only looks like the start of an end marker stays in the paste", () => {
    const t = createTokenizer();
    expect(t.push(START + "a\x1b[20")).toEqual([]);
    expect(t.push("0~b" + END)).toEqual([paste("a\x1b[200~b")]);
  });

  it("F9 (ESC [ 20 ~) is a key, though it starts like the paste marker", () => {
    const t = createTokenizer();
    expect(t.push("\x1b[20")).toEqual([]);
    expect(t.push("~")).toEqual(keys("\x1b[20~"));
  });
});

describe("tokenizer: any cut of any keys", () => {
  const key = fc.oneof(
    fc.constantFrom(
      "a",
      "j",
      " ",
      "é",
      "🚀",
      "\r",
      "\t",
      "\x7f",
      "\x08",
      "\x03",
      "\x12",
      "\x04",
      "\x1b[A",
      "\x1b[1;5C",
      "\x1b[3~",
      "\x1bOP",
      "\x1b[[A",
      "\x1b[2$",
      "\x1b[23$",
      "\x1bj",
      "\x1b🚀",
      "\x1b\x1b[B",
    ),
    fc.string({ maxLength: 6 }).map((s) => ({ paste: s.replace(/\x1b/g, "") })),
  );

  it("reaches the same tokens as one read per key (a pause after each lone ESC)", () => {
    fc.assert(
      fc.property(fc.array(key, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 8 }), (ks, cuts) => {
        const seqs = ks.map((k) => (typeof k === "string" ? k : `\x1b[200~${k.paste}\x1b[201~`));
        const oneByOne = seqs.flatMap((s) => tokenizeReads([s]));
        const all = seqs.join("");
        const points = [...new Set(cuts.map((c) => c % (all.length + 1)))].sort((x, y) => x - y);
        const reads: string[] = [];
        let from = 0;
        for (const p of points) {
          reads.push(all.slice(from, p));
          from = p;
        }
        reads.push(all.slice(from));
        expect(tokenizeReads(reads)).toEqual(oneByOne);
      }),
      { numRuns: 300 },
    );
  });
});

import { describe, expect, it } from "vitest";
import type { CliIO } from "./io.js";
import { output, renderLine, terminalSafeJson, terminalSafeJsonBytes } from "./output.js";

const ACTIVE = "\x1b]0;T\x07 \u009b2J \u009d \u202e \u2066 \x7f";

function captured(isTTY = false) {
  const got = { out: "", err: "" };
  const io: CliIO = {
    stdout: (t) => void (got.out += t),
    stderr: (t) => void (got.err += t),
    cwd: "/",
    env: {},
    isTTY,
    columns: isTTY ? 40 : undefined,
  };
  return { got, out: output(io) };
}

describe("output: the one writer", () => {
  it("text and notes go through the sanitiser, line breaks kept", () => {
    const { got, out } = captured();
    out.text(`a${ACTIVE}b\nc\n`);
    out.note(`n${ACTIVE}\n`);
    expect(got.out).toBe("a     b\nc\n");
    expect(got.out + got.err).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
  });

  it("clean text (of sanitized cells) is written as it is, unless it holds what sanitizing changes", () => {
    const { got, out } = captured();
    out.cleanText("a b  c ✓ 日本\n");
    expect(got.out).toBe("a b  c ✓ 日本\n");
    got.out = "";
    // A joiner or half a pair passed as clean (a piece that was not sanitized) is sanitized.
    out.cleanText("a\u200db \ud800c\n");
    expect(got.out).toBe("ab \ufffdc\n");
    got.out = "";
    out.cleanText(`a${ACTIVE}b\nc\r\n`);
    expect(got.out).toBe("a     b\nc\n");
    out.cleanText("t\tu\n");
    expect(got.out).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
  });

  it("marks hits itself: reverse video on a terminal, «» in a pipe; a mark's own text is sanitized", () => {
    expect(renderLine(["a ", { mark: `hit\x1b[31m` }, " b"], false)).toBe("a «hit» b");
    expect(renderLine(["a ", { mark: "hit" }, " b"], true)).toBe("a \x1b[7mhit\x1b[27m b");
    const { got, out } = captured(true);
    out.lines([["x".repeat(100)]]);
    expect(got.out).toBe("x".repeat(39) + "…\n");
  });

  it("JSON: the same value, every character a terminal acts on \\u-escaped", () => {
    const value = { s: ACTIVE };
    const { got, out } = captured();
    out.json(value);
    expect(got.out).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(got.out)).toEqual(value);
  });

  it("JSON made already (a kept answer read back) is escaped too; clean bytes are written as they are", () => {
    const raw = `{"s":"\x1b \u009b \u202e \u2069 \x7f é — …"}`;
    // Raw ESC is no JSON; escaped, it is the value it meant.
    expect(JSON.parse(terminalSafeJson(raw))).toEqual({ s: "\x1b \u009b \u202e \u2069 \x7f é — …" });
    expect(terminalSafeJson(raw)).not.toMatch(/[\x1b\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    const bytes = Buffer.from(raw);
    const safe = Buffer.from(terminalSafeJsonBytes(bytes)).toString();
    expect(safe).toBe(terminalSafeJson(raw));
    const clean = Buffer.from(`{"s":"é — … ‐ “x”"}`);
    expect(terminalSafeJsonBytes(clean)).toBe(clean);
  });

  it("JSON read a chunk at a time into one buffer: each chunk written before the buffer is filled again", async () => {
    // stdout holds the bytes it was given until drained, as a pipe its reader is behind on does.
    let held: Uint8Array[] = [];
    let written = "";
    const io: CliIO = {
      stdout: () => expect.fail("bytes go to stdoutBytes"),
      stdoutBytes: (b) => void held.push(b),
      drained: () =>
        held.length
          ? Promise.resolve().then(() => {
              for (const b of held) written += Buffer.from(b).toString();
              held = [];
            })
          : undefined,
      stderr: () => {},
      cwd: "/",
      env: {},
      isTTY: false,
    };
    const text = `{"s":"a\x1bé — \u202eb"}`;
    const buf = Buffer.alloc(8);
    function* chunks() {
      // Pieces of whole characters, each copied into the same buffer.
      for (const piece of ['{"s":"a', "\x1bé — ", '\u202eb"}']) {
        const n = buf.write(piece);
        yield buf.subarray(0, n);
      }
    }
    await output(io).jsonChunks(chunks());
    expect(written).toBe(terminalSafeJson(text));
    // A kept text list's chunks too.
    written = "";
    function* lines() {
      for (const piece of ["a  b\n", "cé —\n"]) yield buf.subarray(0, buf.write(piece));
    }
    await output(io).cleanChunks(lines());
    expect(written).toBe("a  b\ncé —\n");
  });
});

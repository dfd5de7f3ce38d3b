import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  INK_ESCAPE_WAIT_MS,
  inkHolds,
  isWindowsTerminal,
  keyAsInkReadsIt,
  KeyStream,
  PENDING_MS,
} from "./keyStream.js";

class FakeTerminalIn extends Readable {
  readonly isTTY = true;
  constructor() {
    super({ read() {} });
  }
}

/** Every chunk the KeyStream hands on, with when (ms after the start). */
function collect(keys: KeyStream) {
  const t0 = performance.now();
  const got: { chunk: string; at: number }[] = [];
  keys.on("data", (chunk: string) => got.push({ chunk, at: performance.now() - t0 }));
  return got;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Once the terminal's reads have arrived (a tick later) and every key has gone on. */
async function drained(keys: KeyStream) {
  await sleep(1);
  while (!keys.idle) await sleep(1);
}

describe("inkHolds: what Ink's parser keeps back as an unfinished sequence", () => {
  it("a lone ESC, ESC ESC, unfinished CSI and SS3, and rxvt's two-digit $ keys", () => {
    for (const k of ["\x1b", "\x1b\x1b", "\x1b[", "\x1b[1;", "\x1b[23$", "\x1bO", "\x1bO1;", "\x1b\x1b["])
      expect(inkHolds(k), JSON.stringify(k)).toBe(true);
  });
  it("not complete sequences, Alt+key, or plain keys", () => {
    for (const k of [
      "a",
      "\r",
      "\x1b[A",
      "\x1b[2$",
      "\x1b[3~",
      "\x1bOP",
      "\x1b[[A",
      "\x1bj",
      "\x1b\x1bq",
      "\x1b\x1b[B",
      "\x1b[200~x\x1b[201~",
    ])
      expect(inkHolds(k), JSON.stringify(k)).toBe(false);
  });
});

describe("KeyStream", () => {
  /** What a KeyStream hands on for these terminal reads, chunk by chunk. */
  async function chunksFor(...reads: string[]) {
    const tty = new FakeTerminalIn();
    const keys = new KeyStream(tty);
    const got = collect(keys);
    for (const r of reads) tty.push(r);
    await drained(keys);
    keys.detach();
    return got.map((g) => g.chunk);
  }

  /**
   * What a KeyStream hands on for these terminal reads, each read let go on before the next
   * arrives: every chunk with whether keys read after it waited behind it (queued) as it went on.
   */
  async function queuedFor(...reads: string[]) {
    const tty = new FakeTerminalIn();
    const keys = new KeyStream(tty);
    const seen: [string, boolean][] = [];
    keys.on("data", (chunk: string) => seen.push([chunk, keys.queued]));
    for (const r of reads) {
      tty.push(r);
      await drained(keys);
    }
    keys.detach();
    return seen;
  }

  it("hands on one key per chunk, however the terminal grouped them, and a paste whole", async () => {
    expect(await chunksFor("/ab\r\x1b[Bq", "\x1b[200~x\ry\x1b[201~")).toEqual(
      // One chunk per character typed (spread), per escape sequence, per paste.
      [..."/ab", "\r", "\x1b[B", "q", "\x1b[200~x\ry\x1b[201~"],
    );
  });

  it("says, as each key is handed on, whether keys read after it wait behind it (queued)", async () => {
    expect(await queuedFor("abc", "d")).toEqual([
      ["a", true],
      ["b", true],
      ["c", false],
      ["d", false],
    ]);
  });

  it("counts as queued only what becomes an action: not a mouse report the app does nothing with (a release, a right or middle click)", async () => {
    const seen = await queuedFor(
      // A right click (press, release) and a middle click's press after the keys, in the same read.
      "ab\x1b[<2;5;5M\x1b[<2;5;5m\x1b[<1;5;5M",
      // A left click and the wheel are actions: a key before them has them behind it.
      "c\x1b[<0;5;5M",
      "d\x1b[<0;5;5m\x1b[<65;5;5M",
    );
    expect(seen).toEqual([
      ["a", true],
      ["b", false],
      ["c", true],
      ["d", true],
    ]);
  });

  it("says idle once every key read is handed on, whatever the last of them came to", async () => {
    const tty = new FakeTerminalIn();
    const keys = new KeyStream(tty);
    const seen: string[] = [];
    keys.on("data", (chunk: string) => seen.push(chunk));
    keys.on("idle", () => seen.push(`idle${keys.queued ? " (queued)" : ""}`));
    tty.push("ab\x1b[<2;5;5M");
    await drained(keys);
    await sleep(5);
    keys.detach();
    // Each key handed on with none behind it is followed by idle (a report that is no action too).
    expect(seen).toEqual(["a", "b", "idle"]);
  });

  it("hands on LF as Enter (a key typed ahead in cooked mode, or Ctrl+J); a pasted LF stays text", async () => {
    expect(await chunksFor("/naive\njj", "\x1b[200~a\nb\x1b[201~")).toEqual([
      ..."/naive",
      "\r",
      ..."jj",
      "\x1b[200~a\nb\x1b[201~",
    ]);
  });

  it("drops the keys read between dropKeys and endDrop, counts them (not mouse reports), hands on those after", async () => {
    const tty = new FakeTerminalIn();
    const keys = new KeyStream(tty);
    const got = collect(keys);
    keys.dropKeys();
    tty.push("\rjj\x1b[<0;5;5M\x1b[200~p\x1b[201~");
    await drained(keys);
    expect(keys.endDrop()).toBe(4);
    tty.push("k\r");
    await drained(keys);
    expect(got.map((g) => g.chunk)).toEqual(["k", "\r"]);
    // Not dropping: nothing dropped.
    expect(keys.endDrop()).toBe(0);
    keys.detach();
  });

  it("a lone ESC goes on after a pause, and the next key waits until Ink has let it go", async () => {
    const tty = new FakeTerminalIn();
    const keys = new KeyStream(tty);
    const got = collect(keys);
    tty.push("\x1b");
    await sleep(PENDING_MS + 5);
    tty.push("j");
    await drained(keys);
    expect(got.map((g) => g.chunk)).toEqual(["\x1b", "j"]);
    expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(INK_ESCAPE_WAIT_MS - 1);
    keys.detach();
  });

  it("passes raw mode, ref and unref to the terminal and stops reading it on detach", async () => {
    const calls: string[] = [];
    const tty = Object.assign(new FakeTerminalIn(), {
      setRawMode: (m: boolean) => calls.push(`raw ${m}`),
      ref: () => calls.push("ref"),
      unref: () => calls.push("unref"),
    });
    const keys = new KeyStream(tty);
    expect(keys.isTTY).toBe(true);
    keys.setRawMode(true);
    keys.ref();
    keys.unref();
    expect(calls).toEqual(["raw true", "ref", "unref"]);
    const got = collect(keys);
    keys.detach();
    tty.push("x");
    await sleep(5);
    expect(got).toEqual([]);
  });

  it("reads a terminal that an earlier KeyStream left paused (the browser back from pi)", async () => {
    const tty = new FakeTerminalIn();
    new KeyStream(tty).detach();
    // What releaseStdin does before a child gets the terminal.
    tty.pause();
    const keys = new KeyStream(tty);
    const got = collect(keys);
    tty.push("j");
    await drained(keys);
    expect(got.map((g) => g.chunk)).toEqual(["j"]);
    keys.detach();
  });
});

describe("keys pi reads in forms Ink does not", () => {
  it("modifyOtherKeys becomes the CSI-u form; 0x08 is Ctrl+Backspace only in Windows Terminal, as in pi-tui", () => {
    expect(keyAsInkReadsIt("\x1b[27;5;127~")).toBe("\x1b[127;5u");
    expect(keyAsInkReadsIt("\x1b[27;6;79~")).toBe("\x1b[79;6u");
    expect(keyAsInkReadsIt("\x08")).toBe("\x08");
    expect(keyAsInkReadsIt("\x08", true)).toBe("\x1b[127;5u");
    expect(keyAsInkReadsIt("\x1b[A")).toBe("\x1b[A");
    expect(isWindowsTerminal({ WT_SESSION: "x" })).toBe(true);
    expect(isWindowsTerminal({ WT_SESSION: "x", SSH_TTY: "/dev/pts/1" })).toBe(false);
  });
});

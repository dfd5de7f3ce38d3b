import { safeJson, TERMINAL_ACTIVE as JSON_RAW } from "../../model/summary-json.js";
import { mayHoldFormat, sanitizeLine, sanitizeMultiline, truncateToWidth } from "../../text/sanitize.js";
import { createInterface } from "node:readline/promises";
import type { CliIO } from "./io.js";

/*
 * The one writer of what a command prints. Commands never write to the process or to
 * their io's stdout and stderr themselves (eslint.config.js forbids it, and
 * test/architecture.test.ts checks it): they say what kind of thing they print, and this
 * module makes it safe for the terminal it may land on.
 * - Text for a person (tables, results, notes, warnings, progress) goes through the
 *   browser's own sanitiser (src/text/sanitize.ts): no escape sequence, C0 or C1 control,
 *   bidi override or isolate from a session file, a file name or a settings file reaches
 *   the terminal. Hits are marked by the writer itself (reverse video on a terminal, «» in
 *   a pipe), so a command needs no escape sequence of its own.
 * - JSON stays JSON, and holds no raw character a terminal acts on: JSON.stringify escapes
 *   C0; ESC, DEL, C1 and the bidi controls are escaped here too (\u001b, \u009b, \u202e):
 *   the same value for a JSON reader.
 */

/** A piece of a line: text, or a hit to mark. */
export type Piece = string | { mark: string };
export type Line = readonly Piece[];

export interface Output {
  /** Text for a person, to stdout: sanitized, its line breaks kept. */
  text(s: string): void;
  /**
   * Text made of pieces each sanitized already (sanitizeLine; a table's cells) and ASCII
   * between them, to stdout: written as it is unless it holds anything sanitizing would
   * change (a control, a format character, half a pair), then sanitized as text() does.
   * Returns the text written.
   */
  cleanText(s: string): string;
  /**
   * UTF-8 text that cleanText wrote before (a kept answer), to stdout: as it is unless it
   * holds a control, DEL, C1 or bidi control, then decoded and sanitized as text() does.
   */
  cleanBytes(bytes: Uint8Array): void;
  /** Chunks of such bytes made one after another in one buffer: each written as cleanBytes writes it before the next is made. */
  cleanChunks(chunks: Iterable<Uint8Array>): Promise<void>;
  /** Lines of text and marked hits, to stdout; on a terminal each is cut to its width. */
  lines(lines: readonly Line[]): void;
  /** A note, warning or hint, to stderr: sanitized as text. */
  note(s: string): void;
  /** A progress line that the next one overwrites (`\r` first), to stderr; only on a terminal. */
  progress(s: string): void;
  /** A value as JSON and a newline, to stdout; returns the text written. */
  json(value: unknown): string;
  /** JSON made already (a kept answer's text), to stdout, escaped as json() escapes. */
  jsonText(text: string): void;
  /** JSON made already as UTF-8 bytes (a kept answer, the index's pieces), to stdout, escaped as json() escapes. */
  jsonBytes(bytes: Uint8Array): void;
  /**
   * JSON bytes read from a file a chunk at a time into one buffer, each chunk whole characters,
   * escaped as jsonBytes escapes them (the same bytes as the whole at once): each written
   * before the next is read.
   */
  jsonChunks(chunks: Iterable<Uint8Array>): Promise<void>;
  /**
   * A document to stdout (an export): Markdown and HTML with every control but tab and line
   * breaks removed (the exporters sanitize their text already), JSON lines escaped as json() escapes.
   */
  document(text: string, kind: "text" | "json"): void;
  /** A question on the terminal (stdin, stderr), sanitized as text: whether the answer matches `expected`. */
  ask(question: string, expected: RegExp): Promise<boolean>;
}

// What a terminal acts on and JSON.stringify leaves raw (safeJson escapes it), and ESC: raw
// it is no JSON, but a kept answer is bytes read back from a file.
const TERMINAL_ACTIVE = new RegExp(`\u001b|${JSON_RAW.source}`, "g");
const escapeChar = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** JSON text with every character a terminal would act on written as its \u escape. */
export function terminalSafeJson(text: string): string {
  TERMINAL_ACTIVE.lastIndex = 0;
  return TERMINAL_ACTIVE.test(text) ? text.replace(TERMINAL_ACTIVE, escapeChar) : text;
}

/**
 * Whether UTF-8 bytes may hold such a character: ESC, DEL, C1 (C2 80–9F), U+202A–U+202E
 * (E2 80 AA–AE) or U+2066–U+2069 (E2 81 A6–A9). Found by the bytes' own indexOf (a
 * store's answers run to megabytes, and hold none nearly always).
 */
function mayHoldActive(b: Buffer): boolean {
  if (b.indexOf(0x1b) !== -1 || b.indexOf(0x7f) !== -1) return true;
  for (let i = b.indexOf(0xc2); i !== -1; i = b.indexOf(0xc2, i + 1)) {
    const n = b[i + 1];
    if (n >= 0x80 && n <= 0x9f) return true;
  }
  for (let i = b.indexOf(0xe2); i !== -1; i = b.indexOf(0xe2, i + 1)) {
    const n = b[i + 1];
    const m = b[i + 2];
    if ((n === 0x80 && m >= 0xaa && m <= 0xae) || (n === 0x81 && m >= 0xa6 && m <= 0xa9)) return true;
  }
  return false;
}

/** UTF-8 JSON bytes escaped as terminalSafeJson escapes (the same bytes when nothing needs it). */
export function terminalSafeJsonBytes(bytes: Uint8Array): Uint8Array {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  return mayHoldActive(b) ? Buffer.from(terminalSafeJson(b.toString("utf8"))) : bytes;
}

// What a terminal acts on and sanitizeLine's text never holds: C0 but the line end, DEL, C1,
// the bidi controls. One test of a class: a 10 MB table sanitized again cost several times it.
const TERMINAL_ACTING = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * Whether UTF-8 bytes may hold what TERMINAL_ACTING matches: C0 but the line end, DEL, C1
 * (C2 80–9F), U+202A–U+202E (E2 80 AA–AE), U+2066–U+2069 (E2 81 A6–A9), without decoding
 * a kept table's ten megabytes.
 */
function mayHoldActing(bytes: Uint8Array): boolean {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  // A byte's indexOf each (a loop over every byte took 60 ms of a 0.4 s relaunch).
  for (let c = 0; c < 0x20; c++) if (c !== 0x0a && b.indexOf(c) !== -1) return true;
  return mayHoldActive(b);
}

// A document keeps its tabs and line breaks; nothing else below space, no DEL, C1 or bidi control.
const DOCUMENT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** A line of pieces as it is printed: each piece sanitized, hits marked. */
export function renderLine(line: Line, tty: boolean): string {
  const [on, off] = tty ? ["\x1b[7m", "\x1b[27m"] : ["«", "»"];
  let out = "";
  for (const p of line) out += typeof p === "string" ? sanitizeLine(p) : `${on}${sanitizeLine(p.mark)}${off}`;
  return out;
}

export function output(io: CliIO): Output {
  const bytesOut = (b: Uint8Array) => {
    if (io.stdoutBytes) io.stdoutBytes(b);
    else io.stdout(Buffer.from(b.buffer, b.byteOffset, b.length).toString());
  };
  /** Writes each chunk, then waits until stdout is done with it: the next is made in the same buffer. */
  const eachChunk = async (chunks: Iterable<Uint8Array>, write: (chunk: Uint8Array) => void) => {
    for (const chunk of chunks) {
      write(chunk);
      await io.drained?.();
    }
  };
  const cleanBytes = (bytes: Uint8Array) => {
    if (mayHoldActing(bytes)) io.stdout(sanitizeMultiline(Buffer.from(bytes).toString("utf8")));
    else bytesOut(bytes);
  };
  return {
    text: (s) => io.stdout(sanitizeMultiline(s)),
    // Sanitized again when it holds anything sanitizing acts on: what a caller passes as clean
    // is trusted only as far as a test of it shows (a format character, a lone half, a control).
    cleanText(s) {
      const text = TERMINAL_ACTING.test(s) || mayHoldFormat(s) ? sanitizeMultiline(s) : s;
      io.stdout(text);
      return text;
    },
    cleanBytes,
    cleanChunks: (chunks) => eachChunk(chunks, cleanBytes),
    lines(lines) {
      const fit = (l: string) => (io.columns === undefined ? l : truncateToWidth(l, io.columns));
      io.stdout(lines.map((l) => fit(renderLine(l, io.isTTY)) + "\n").join(""));
    },
    note: (s) => io.stderr(sanitizeMultiline(s)),
    progress: (s) => {
      if (io.isTTY) io.stderr(`\r${sanitizeLine(s)}`);
    },
    json(value) {
      const text = `${safeJson(value)}\n`;
      io.stdout(text);
      return text;
    },
    jsonText: (text) => io.stdout(terminalSafeJson(text)),
    jsonBytes: (bytes) => bytesOut(terminalSafeJsonBytes(bytes)),
    jsonChunks: (chunks) => eachChunk(chunks, (chunk) => bytesOut(terminalSafeJsonBytes(chunk))),
    document: (text, kind) => io.stdout(kind === "json" ? terminalSafeJson(text) : text.replace(DOCUMENT_CONTROL, "")),
    async ask(question, expected) {
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return expected.test((await rl.question(sanitizeLine(question))).trim());
      } finally {
        rl.close();
      }
    },
  };
}

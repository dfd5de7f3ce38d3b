import { Readable } from "node:stream";
import { isMouseSequence, mouseActs, type MouseEvent, parseMouse } from "./sgrMouse.js";
import { createTokenizer, type Token } from "./tokenizer.js";
import { trace, tracing } from "../../launcher/trace.js";

/** How long a read that ends inside a sequence (a lone ESC, most often) waits for the rest. */
export const PENDING_MS = 10;

/**
 * Ink 8 holds input that ends inside what its own parser takes for an unfinished escape
 * sequence (a lone ESC, ESC ESC, ESC [ 23 $) and passes it on 20 ms after the last read
 * (components/App.js, pendingInputFlushDelayMilliseconds). A key handed on sooner would be
 * glued to it: Escape then j would become Alt+J. After such a key the next waits this long.
 */
export const INK_ESCAPE_WAIT_MS = 30;

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** The terminal as Ink needs it: a readable TTY with raw mode. */
export interface TerminalIn extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  ref?(): unknown;
  unref?(): unknown;
}

/**
 * The stdin handed to Ink: the terminal's reads cut into the keys a terminal would have
 * sent one by one (tokenizer.ts), one key per chunk, and the next key only after the
 * previous one has been handled and rendered (two turns of the event loop), so every
 * consumer, a third-party component with its own state included, sees each key against
 * the state the key before it left. A paste goes on as one bracketed chunk, which Ink
 * hands to usePaste as text. A mouse report is never a key: it is emitted as a "mouse"
 * event (a parsed MouseEvent) in its place in the queue. Once every key read is handed on
 * (nothing queued, nothing held) it emits "idle".
 */
export class KeyStream extends Readable {
  readonly isTTY: boolean;
  private readonly tokenizer = createTokenizer();
  private readonly queue: (string | { mouse: MouseEvent | null })[] = [];
  private waiting = false;
  private flushTimer: NodeJS.Timeout | undefined;
  /** Keys dropped so far while dropping (dropKeys), or undefined when not dropping. */
  private dropped: number | undefined;
  private readonly onData = (chunk: string | Buffer) =>
    this.accept(typeof chunk === "string" ? chunk : chunk.toString("utf8"));

  /** Windows Terminal, not over SSH: its 0x08 is Ctrl+Backspace (pi-tui's rule). */
  private readonly windowsTerminal = isWindowsTerminal(process.env);

  constructor(private readonly source: TerminalIn) {
    super({ objectMode: true, read() {} });
    this.isTTY = source.isTTY === true;
    source.setEncoding?.("utf8");
    source.on("data", this.onData);
    // A 'data' listener starts only a stream never paused: after detach() and a child's
    // turn at the terminal (pi, then back to the browser) it was paused, and keys went unread.
    source.resume();
  }

  /** Chunks are strings already (the terminal is read as UTF-8). */
  override setEncoding(): this {
    return this;
  }

  setRawMode(mode: boolean): this {
    this.source.setRawMode?.(mode);
    return this;
  }

  ref(): this {
    this.source.ref?.();
    return this;
  }

  unref(): this {
    this.source.unref?.();
    return this;
  }

  /** Nothing held back or queued: every key read so far has been handed on. */
  get idle(): boolean {
    return !this.waiting && this.queue.length === 0 && !this.tokenizer.pending();
  }

  /**
   * Keys read after the one being handed on, still to come (a query typed then is derived at
   * the last). Only what becomes an action counts: a query typed before a right click or a
   * button's release is derived at its own last key.
   */
  get queued(): boolean {
    return this.tokenizer.pending() || this.queue.some((c) => typeof c === "string" || mouseActs(c.mouse));
  }

  /**
   * From now until endDrop(), keys read are dropped, not handed on (mouse reports too, not
   * counted): for keys typed on a screen that showed other rows than the UI starts from.
   */
  dropKeys(): void {
    this.dropped ??= 0;
  }

  /** Keys read from now on are handed on again; how many were dropped. */
  endDrop(): number {
    const n = this.dropped ?? 0;
    this.dropped = undefined;
    return n;
  }

  /** Stops reading the terminal (it stays usable by whoever reads it next). */
  detach(): void {
    clearTimeout(this.flushTimer);
    this.source.off("data", this.onData);
    this.queue.length = 0;
  }

  private accept(chunk: string): void {
    // When a key came and when it was handed on (PI_SESSIONS_TRACE): keys queued behind slow frames.
    if (tracing) trace(`key read ${JSON.stringify(chunk)}`);
    clearTimeout(this.flushTimer);
    this.enqueue(this.tokenizer.push(chunk));
    if (this.tokenizer.pending()) {
      this.flushTimer = setTimeout(() => this.enqueue(this.tokenizer.flush()), PENDING_MS);
      this.flushTimer.unref?.();
    }
  }

  private enqueue(tokens: Token[]): void {
    if (this.dropped !== undefined) {
      this.dropped += tokens.filter((t) => t.kind === "paste" || !isMouseSequence(t.seq)).length;
      return;
    }
    for (const t of tokens)
      this.queue.push(
        t.kind === "paste"
          ? PASTE_START + t.text + PASTE_END
          : isMouseSequence(t.seq)
            ? { mouse: parseMouse(t.seq) }
            : t.seq === "\n"
              ? // LF is Enter: keys typed before raw mode was on come through the tty's cooked
                // mode, which turns Enter into LF (ICRNL); and readline's Ctrl+J accepts a line.
                "\r"
              : keyAsInkReadsIt(t.seq, this.windowsTerminal),
      );
    this.next();
  }

  private next(): void {
    if (this.waiting) return;
    const chunk = this.queue.shift();
    if (chunk === undefined) {
      // Every key read is handed on, whatever the last came to (App derives rows put off then).
      if (!this.tokenizer.pending()) this.emit("idle");
      return;
    }
    this.waiting = true;
    const release = () => {
      this.waiting = false;
      this.next();
    };
    if (typeof chunk !== "string") {
      if (chunk.mouse) this.emit("mouse", chunk.mouse);
    } else {
      if (tracing) trace(`key handed ${JSON.stringify(chunk)}`);
      this.push(chunk);
      if (inkHolds(chunk)) {
        setTimeout(release, INK_ESCAPE_WAIT_MS);
        return;
      }
    }
    // Ink reads the chunk on 'readable' and React commits the update in a microtask;
    // the second turn lets effects that follow a commit run too.
    setImmediate(() => setImmediate(release));
  }
}

const isFinal = (c: number) => c >= 0x40 && c <= 0x7e;

/** pi-tui's test: Windows Terminal, and not a session over SSH. */
export function isWindowsTerminal(env: NodeJS.ProcessEnv): boolean {
  return !!env.WT_SESSION && !env.SSH_CONNECTION && !env.SSH_CLIENT && !env.SSH_TTY;
}

/**
 * A key in the form Ink reads, for the keys pi reads in forms Ink does not: xterm's
 * modifyOtherKeys (ESC [ 27 ; mod ; code ~, as Ctrl+Backspace or Ctrl+Shift+O arrive from
 * xterm or tmux's extended keys) becomes the same key in the kitty/CSI-u form Ink parses
 * (ESC [ code ; mod u); Windows Terminal's 0x08 is Ctrl+Backspace, as pi-tui takes it
 * there (elsewhere 0x08 stays Backspace, as in pi).
 */
export function keyAsInkReadsIt(seq: string, windowsTerminal = false): string {
  if (seq === "\x08") return windowsTerminal ? "\x1b[127;5u" : seq;
  const m = /^\x1b\[27;(\d+);(\d+)~$/.exec(seq);
  return m ? `\x1b[${m[2]};${m[1]}u` : seq;
}

/**
 * Whether Ink's input parser, given `key` as a whole read, keeps it back as the start of
 * an unfinished sequence (its rules, which differ from ours in places: it ends rxvt's "$"
 * keys after one digit only).
 */
export function inkHolds(key: string): boolean {
  if (key[0] !== "\x1b") return false;
  let i = key[1] === "\x1b" ? 2 : 1;
  if (i >= key.length) return true;
  const kind = key[i];
  if (kind === "[") {
    const start = ++i;
    for (; i < key.length; i++) {
      const c = key.charCodeAt(i);
      if (i === start && c === 0x5b) continue;
      if (c === 0x24 && i === start + 1 && "235678".includes(key[start])) return false;
      if (isFinal(c)) return false;
      if (c < 0x20 || c > 0x3f) return false;
    }
    return true;
  }
  if (kind === "O") {
    for (i++; i < key.length; i++) {
      const c = key.charCodeAt(i);
      if (isFinal(c)) return false;
      if (c !== 0x3b && (c < 0x30 || c > 0x39)) return false;
    }
    return true;
  }
  return false;
}

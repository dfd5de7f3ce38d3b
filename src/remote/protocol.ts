/*
 * The remote protocol: what `pi-sessions serve --stdio` on another machine and this one say
 * to each other over an SSH channel. JSON lines, as an LSP server or git-upload-pack speak a
 * line protocol of their own: the server's hello first (protocol version, capabilities), then
 * one request per line from the client, each with an id, and one answer per line for each,
 * in any order. A line is at most so long (MAX_REQUEST_LINE, MAX_ANSWER_LINE): a longer one is
 * never assembled, and ends the conversation.
 */

/** This build's protocol. A hello with a higher one is a newer pi-sessions: said, never guessed at. */
export const PROTOCOL = 1;

/** What the server says first: the one line that tells a pi-sessions server from anything else. */
export interface Hello {
  "pi-sessions": "serve";
  protocol: number;
  /** The server's pi-sessions version (for messages). */
  version: string;
  /** The requests it answers (OPS below, for protocol 1). */
  capabilities: string[];
}

/**
 * Every request of protocol 1, by name. A request added later is named in the hello's
 * capabilities: the client asks a host only for what its hello names (RemoteClient.can).
 */
export const OPS = [
  "list",
  "search",
  "stats",
  "show",
  "export",
  "read",
  "rename",
  "label",
  "navigate",
  "fork",
  "delete",
  "restore",
  "trash",
  // Added within protocol 1: a host whose hello does not name it counts no usage here.
  "usage",
] as const;
export type Op = (typeof OPS)[number];

export interface Request {
  id: number;
  op: Op;
  params?: Record<string, unknown>;
}

/** The answer to one request: `result` when it was carried out, `error` (one line of text) when not. */
export type Answer =
  | { id: number; ok: true; result: Record<string, unknown> }
  | { id: number; ok: false; error: { message: string; exit?: number } };

/** A request line: ids, op and params are small; a session path or a query is far below this. */
export const MAX_REQUEST_LINE = 1024 * 1024;
/**
 * An answer line: a store's list, an export, a chunk of a file (a `read` asks for at most
 * READ_CHUNK bytes). The project's own bound on one line of anything (src/store/line-reader.ts).
 */
export const MAX_ANSWER_LINE = 64 * 1024 * 1024;
/** What one `read` request may ask for: its base64 stays far inside MAX_ANSWER_LINE. */
export const READ_CHUNK = 8 * 1024 * 1024;

/** One message as one line: JSON has no raw newline inside strings, and C1 controls are escaped too. */
export function encodeLine(value: unknown): string {
  return (
    JSON.stringify(value).replace(
      /[\u0080-\u009f\u2028\u2029]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    ) + "\n"
  );
}

export class LineTooLong extends Error {
  override name = "LineTooLong";
  constructor(readonly limit: number) {
    super(`a line longer than ${limit} bytes`);
  }
}

/**
 * Cuts a byte stream into lines (without their "\n"). A line longer than `max` is never
 * assembled: `push` throws LineTooLong as soon as that many bytes came without a newline.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  constructor(private readonly max: number) {}

  /** The complete lines this chunk ends. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl < 0) break;
      if (this.size + nl - start > this.max) throw new LineTooLong(this.max);
      const piece = chunk.subarray(start, nl);
      lines.push(
        this.size ? Buffer.concat([...this.parts, piece], this.size + piece.length).toString("utf8") : piece.toString(),
      );
      this.parts = [];
      this.size = 0;
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (this.size + rest.length > this.max) throw new LineTooLong(this.max);
      // A copy: the stream may reuse its buffer.
      this.parts.push(Buffer.from(rest));
      this.size += rest.length;
    }
    return lines;
  }

  /** Bytes of a line begun and not ended. */
  get pending(): number {
    return this.size;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** The hello in `line`, or why it is none. */
export function parseHello(line: string): Hello | { problem: string } {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return { problem: "not pi-sessions' answer" };
  }
  if (!isObject(v) || v["pi-sessions"] !== "serve" || typeof v.protocol !== "number")
    return { problem: "not pi-sessions' answer" };
  return {
    "pi-sessions": "serve",
    protocol: v.protocol,
    version: typeof v.version === "string" ? v.version : "unknown",
    capabilities: Array.isArray(v.capabilities) ? v.capabilities.filter((c) => typeof c === "string") : [],
  };
}

/** The answer in `line`, or undefined when the line is none (garbage). */
export function parseAnswer(line: string): Answer | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(v) || typeof v.id !== "number") return undefined;
  if (v.ok === true && isObject(v.result)) return { id: v.id, ok: true, result: v.result };
  if (v.ok === false && isObject(v.error) && typeof v.error.message === "string")
    return {
      id: v.id,
      ok: false,
      error: { message: v.error.message, ...(typeof v.error.exit === "number" ? { exit: v.error.exit } : {}) },
    };
  return undefined;
}

/** The request in `line`, or why it is none. */
export function parseRequest(line: string): Request | { id?: number; problem: string } {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return { problem: "a request must be one JSON object per line" };
  }
  if (!isObject(v) || typeof v.id !== "number" || !Number.isSafeInteger(v.id))
    return { problem: "a request needs a numeric id" };
  if (typeof v.op !== "string" || !(OPS as readonly string[]).includes(v.op))
    return { id: v.id, problem: `unknown request '${String(v.op).slice(0, 40)}'` };
  if (v.params !== undefined && !isObject(v.params)) return { id: v.id, problem: "params must be an object" };
  return { id: v.id, op: v.op as Op, ...(v.params ? { params: v.params } : {}) };
}

import { parseBounded } from "./bounded-parse.js";
import { MAX_LINE_BYTES, type LineRef } from "./line-reader.js";

export type ParsedLine =
  | { kind: "blank" }
  | { kind: "value"; value: unknown }
  /** A bulky tool output line recognised from its first bytes; its body was not parsed. */
  | {
      kind: "skimmed";
      value: {
        type: "message";
        id: string;
        parentId: string | null;
        timestamp: string;
        message: { role: string; toolCallId?: string; toolName?: string };
      };
    }
  | { kind: "malformed"; reason: string };

/** Lines longer than this are candidates for skimming instead of a full JSON.parse. */
export const SKIM_THRESHOLD = 16 * 1024;
/**
 * The listing's threshold: a summary needs nothing from a tool output but its id, parent,
 * timestamp and role, and below 16 KB there are many of them (on a generated 2,000-session
 * store, 42 MB of 1–16 KB toolResult lines: half of all the JSON.parse work left).
 * Skimming a line costs a 320-byte decode and one regex, far less than parsing 1 KB.
 */
export const LIST_SKIM_THRESHOLD = 1024;
const PREFIX_BYTES = 320;
/** Lines longer than this are read bounded when skimming (a summary or an index needs little of them). */
export const BIG_LINE = 1024 * 1024;
// pi writes entries with JSON.stringify in a fixed key order; tool outputs dominate a
// store's bytes and listing needs nothing from their bodies.
const SKIM_PREFIX =
  /^\{"type":"message","id":"([A-Za-z0-9_-]{1,64})","parentId":(null|"[A-Za-z0-9_-]{1,64}"),"timestamp":"([0-9T:.Z+-]{1,40})","message":\{"role":"(toolResult|bashExecution)"(?:,"toolCallId":"([^"\\]{1,128})","toolName":"([^"\\]{1,64})")?/;

const CLOSE_BRACE = 0x7d;
const PARENT_KEY = Buffer.from('"parentId":');
// A tool result can carry usage (pi 1.5.2: nested model calls), which the totals need.
// Inside a JSON string the key would read \"usage\", so this finds only a real key.
const USAGE_KEY = Buffer.from('"usage":');

function lastNonSpace(buf: Buffer, start: number, end: number): number {
  for (let i = end - 1; i >= start; i--) {
    const c = buf[i];
    if (c !== 0x20 && c !== 0x0d && c !== 0x09) return c;
  }
  return -1;
}

function isBlank(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = buf[i];
    if (c !== 0x20 && c !== 0x0d && c !== 0x09) return false;
  }
  return true;
}

/** The warning for a line passed over by the line reader's cap. */
export function oversizeReason(bytes: number): string {
  return `line of ${bytes} bytes is longer than the ${MAX_LINE_BYTES / (1024 * 1024)} MiB a line may hold`;
}

export function parseLine(ref: LineRef, skim: boolean, threshold = SKIM_THRESHOLD): ParsedLine {
  const { buf, start, end } = ref;
  if (ref.oversize !== undefined) return { kind: "malformed", reason: oversizeReason(ref.oversize) };
  if (isBlank(buf, start, end)) return { kind: "blank" };
  const length = end - start;
  if (skim && length > threshold && ref.terminated && lastNonSpace(buf, start, end) === CLOSE_BRACE) {
    const m = SKIM_PREFIX.exec(buf.toString("utf8", start, start + PREFIX_BYTES));
    // Old pi appended onto a half-written line (pi #8345), merging two entries into one
    // line; a second unescaped "parentId": gives that away (inside strings it is \"parentId\").
    // A bash execution's row text is its command: only skim it when it is really bulky.
    const bulky = m !== null && (m[4] === "toolResult" || length > SKIM_THRESHOLD);
    const body = buf.subarray(start, end);
    if (m && bulky && body.indexOf(PARENT_KEY, m[0].length) === -1 && body.indexOf(USAGE_KEY, m[0].length) === -1) {
      const parentId = m[2] === "null" ? null : m[2].slice(1, -1);
      const message: { role: string; toolCallId?: string; toolName?: string } = { role: m[4] };
      if (m[5] !== undefined) {
        message.toolCallId = m[5];
        message.toolName = m[6];
      }
      return { kind: "skimmed", value: { type: "message", id: m[1], parentId, timestamp: m[3], message } };
    }
  }
  // A huge line a listing or an index reads (skim): only what they need is built, as far
  // as bounds allow (src/store/bounded-parse.ts); memory stays bounded whatever it holds.
  if (skim && length > BIG_LINE) {
    try {
      return { kind: "value", value: parseBounded(buf, start, end) };
    } catch {
      return { kind: "malformed", reason: ref.terminated ? "malformed JSON" : "truncated last line (no newline)" };
    }
  }
  let text: string;
  try {
    text = buf.toString("utf8", start, end);
  } catch {
    return { kind: "malformed", reason: `line of ${length} bytes is too long to decode` };
  }
  try {
    return { kind: "value", value: JSON.parse(text) };
  } catch {
    return { kind: "malformed", reason: ref.terminated ? "malformed JSON" : "truncated last line (no newline)" };
  }
}

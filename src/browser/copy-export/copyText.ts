import { plural } from "../../text/format.js";
import type { Block } from "../../transcript/blocks.js";

/*
 * What `y`, `p`, `i` and `c` put on the clipboard. Raw session text (the clipboard gets
 * what was written; OSC 52 carries it base64-encoded, so nothing reaches the terminal).
 */

/** A word for the status line: "your message", "the assistant's message", "the tool call". */
export function blockWhat(b: Block): string {
  switch (b.kind) {
    case "user":
      return "your message";
    case "assistant":
      return "the assistant's message";
    case "tool":
      return "the tool call and its output";
    case "compaction":
      return "the compaction summary";
    case "branch_summary":
      return "the branch summary";
    case "custom":
      return "the message";
  }
}

/** The text of a block as shown (a bulky tool output is read here: the user asked for it). */
export function blockText(b: Block): string {
  switch (b.kind) {
    case "user":
      return b.text;
    case "assistant": {
      const texts = b.parts.filter((p) => p.type === "text").map((p) => p.text);
      const shown = texts.length ? texts : b.parts.map((p) => p.text);
      return shown.join("\n\n") || (b.error ?? "");
    }
    case "tool": {
      const output = b.output ?? b.load?.().output;
      return output === undefined ? b.title : `${b.title}\n${output}`;
    }
    case "compaction":
    case "branch_summary":
      return b.summary;
    case "custom":
      return b.text;
  }
}

const SAFE = /^[A-Za-z0-9_./:@%+=,-]+$/;

/** One word for a POSIX shell: as it is when safe, else single-quoted. */
export function shellQuote(s: string): string {
  if (s !== "" && SAFE.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command that resumes a session where pi-sessions would: `cd <cwd> && pi --session <path>`,
 * with the pi command the browser runs (its words, as spawnPi splits it).
 */
export function resumeCommand(cwd: string, path: string, pi: readonly string[] = ["pi"]): string {
  const command = pi.length ? pi.map(shellQuote).join(" ") : "pi";
  return `cd ${shellQuote(cwd)} && ${command} --session ${shellQuote(path)}`;
}

/** "1,234 characters" */
export function sizeNote(text: string): string {
  const n = Array.from(text).length;
  return plural(n, "character");
}

/**
 * The most OSC 52 carries here. Terminals cap or choke on bigger sequences (tmux, xterm and
 * others drop them, some hang while decoding): a bigger text is refused, pointing at export.
 */
export const MAX_COPY_BYTES = 4 << 20;

/** Why `text` is not copied, or undefined when it can be. */
export function copyRefusal(text: string): string | undefined {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes <= MAX_COPY_BYTES) return undefined;
  return `too big to copy through the terminal (${(bytes / (1 << 20)).toFixed(1)} MB; up to ${MAX_COPY_BYTES >> 20} MB): e exports the session`;
}

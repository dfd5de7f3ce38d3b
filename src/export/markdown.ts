import { sanitizeLine, sanitizeMultiline } from "../text/sanitize.js";
import type { Block } from "../transcript/blocks.js";
import { withoutTrailingNewlines } from "../transcript/layout.js";
import type { ExportDocument } from "./document.js";

/*
 * Markdown of a session. Message text is Markdown already and is written as it is;
 * tool titles and outputs go into code spans and fences long enough that nothing in
 * them closes the fence. Everything is sanitized: the export may be printed to a
 * terminal.
 */

function longestRun(s: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of s) {
    run = c === ch ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

/** An inline code span that holds `s` whatever backticks it contains. */
export function codeSpan(s: string): string {
  const ticks = "`".repeat(longestRun(s, "`") + 1);
  const pad = s.startsWith("`") || s.endsWith("`") ? " " : "";
  return `${ticks}${pad}${s}${pad}${ticks}`;
}

/** A fenced block that holds `s` whatever fences it contains. */
export function fenced(s: string, info = ""): string {
  const fence = "`".repeat(Math.max(3, longestRun(s, "`") + 1));
  return `${fence}${info}\n${s}${s.endsWith("\n") || !s ? "" : "\n"}${fence}`;
}

const quote = (s: string) =>
  s
    .split("\n")
    .map((l) => (l ? `> ${l}` : ">"))
    .join("\n");

/** One block as Markdown (also what copying a message gives). */
export function blockMarkdown(b: Block): string {
  const text = (s: string) => sanitizeMultiline(s.trim());
  switch (b.kind) {
    case "user":
      return `### User\n\n${text(b.text)}${b.images ? `\n\n*[${b.images} image${b.images === 1 ? "" : "s"}]*` : ""}`;
    case "assistant": {
      const out = [`### Assistant${b.model ? ` (${sanitizeLine(b.model)})` : ""}`];
      for (const p of b.parts) out.push(p.type === "text" ? text(p.text) : quote(`**Thinking**\n\n${text(p.text)}`));
      if (b.error) out.push(b.error === "aborted" ? "*(aborted)*" : `*Error: ${sanitizeLine(b.error)}*`);
      return out.join("\n\n");
    }
    case "tool": {
      const head = `**Tool** ${codeSpan(sanitizeLine(b.title))}${b.isError ? " (error)" : ""}`;
      if (b.output === undefined) return `${head}\n\n*(no result)*`;
      const body = sanitizeMultiline(withoutTrailingNewlines(b.output));
      return `${head}\n\n${body ? fenced(body, "text") : "*(no output)*"}${b.images ? `\n\n*[${b.images} image${b.images === 1 ? "" : "s"}]*` : ""}`;
    }
    case "compaction":
      return `### Compaction${b.tokensBefore !== undefined ? ` (from ${b.tokensBefore.toLocaleString("en-US")} tokens)` : ""}\n\n${text(b.summary)}`;
    case "branch_summary":
      return `### Branch summary\n\n${text(b.summary)}`;
    case "custom":
      return `### ${sanitizeLine(b.customType)}\n\n${text(b.text)}`;
  }
}

export function toMarkdown(doc: ExportDocument): string {
  const line = (s: string) => sanitizeLine(s);
  const out = [
    `# ${line(doc.title)}`,
    [
      `- Session: ${codeSpan(line(doc.sessionId))}`,
      `- Folder: ${codeSpan(line(doc.cwd) || "?")}`,
      ...(doc.created ? [`- Created: ${line(doc.created)}`] : []),
      `- Exported: ${doc.scope}`,
      `- File: ${codeSpan(line(doc.path))}`,
    ].join("\n"),
  ];
  for (const s of doc.sections) {
    out.push("---");
    if (s.heading) out.push(`## ${s.heading}${s.note ? `\n\n*${line(s.note)}*` : ""}`);
    if (s.blocks.length === 0) out.push("*(no messages)*");
    for (const b of s.blocks) out.push(blockMarkdown(b));
  }
  return `${out.join("\n\n")}\n`;
}

import { formatBytes, plural } from "../text/format.js";
import { sanitizeLine, sanitizeMultiline, truncateToWidth } from "../text/sanitize.js";
import { displayWidth } from "../text/width.js";
import type { Block, ToolBlock } from "./blocks.js";
import { markdownLines, type LineStyle, type SourceLine } from "./markdown-light.js";
import { wrapRanges } from "../text/wrap.js";

/*
 * Blocks → display lines for a width. Each block is laid out on its own (a blank line
 * ends it), so a window of blocks can be laid out without the rest: the reader opens a
 * 50,000-entry session at its end by laying out only the last screenful. A tool output
 * is cut down before it is sanitized or wrapped: collapsed it is not read at all, and
 * truncated only its first lines are.
 */

export type ToolMode = "collapsed" | "truncated" | "full";
export const TOOL_MODES: readonly ToolMode[] = ["collapsed", "truncated", "full"];

export function nextToolMode(m: ToolMode): ToolMode {
  return TOOL_MODES[(TOOL_MODES.indexOf(m) + 1) % TOOL_MODES.length];
}

export interface LayoutOptions {
  width: number;
  /** How tool calls show (default collapsed); `toolModes` overrides it per block index. */
  tools?: ToolMode;
  toolModes?: ReadonlyMap<number, ToolMode>;
  /** Show thinking (default: hidden behind one "Thinking…" line, as pi). */
  thinking?: boolean;
  /** Output lines a truncated tool shows (default 10). */
  truncatedLines?: number;
}

export interface DisplayLine {
  block: number;
  /** What the terminal shows (prefix included); sanitized. */
  text: string;
  style: LineStyle;
  /** The source line it shows a part of (-1 for the blank line that ends a block), and which part. */
  src: number;
  start: number;
  end: number;
  /** Length of the prefix (gutter, indent, bullet) in `text`, before the source part. */
  prefix: number;
}

const INDENT = "  ";
const OUTPUT_INDENT = "    ";
/** A truncated output reads at most this many characters per shown line. */
const HEAD_CHARS_PER_LINE = 1024;
/** Line counts of longer outputs are not worth a scan; their size is shown instead. */
const COUNT_LINES_UP_TO = 1 << 20;

export function toolModeOf(index: number, opts: LayoutOptions): ToolMode {
  return opts.toolModes?.get(index) ?? opts.tools ?? "collapsed";
}

function countLines(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i !== -1; i = s.indexOf("\n", i + 1)) n++;
  return s.length && s.charCodeAt(s.length - 1) !== 10 ? n + 1 : n;
}

export function withoutTrailingNewlines(s: string): string {
  let end = s.length;
  while (end > 0 && (s.charCodeAt(end - 1) === 10 || s.charCodeAt(end - 1) === 13)) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** "12 lines", or the size of an output too big to count cheaply. */
function outputSize(output: string): string {
  if (output.length > COUNT_LINES_UP_TO) return formatBytes(output.length);
  return plural(countLines(output), "line");
}

const line = (
  text: string,
  style: LineStyle,
  first: string,
  wrap: SourceLine["wrap"] = "word",
  rest = first,
): SourceLine => ({ text, style, first, rest, wrap });

/** The source lines of one block under the options: bounded by what is shown, not by the block's size. */
export function blockSource(block: Block, index: number, opts: LayoutOptions): SourceLine[] {
  if (!block.edit) return bodySource(block, index, opts);
  // A context edit: the header says so; an omitted entry is only its header.
  if (block.edit === "omit") {
    // Collapsed and without thinking: an omitted output is never read.
    const head = bodySource(block, index, { ...opts, thinking: false, tools: "collapsed", toolModes: undefined })[0];
    return [{ ...head, text: `${head.text} · ⊘ omitted from the model's context`, wrap: "cut" }];
  }
  const out = bodySource(block, index, opts);
  return [{ ...out[0], text: `${out[0].text} · ✎ edited` }, ...out.slice(1)];
}

function bodySource(block: Block, index: number, opts: LayoutOptions): SourceLine[] {
  switch (block.kind) {
    case "user": {
      const out = [line("You", "header", "", "cut"), ...markdownLines(sanitizeMultiline(block.text.trim()), INDENT)];
      if (block.images) out.push(line(`[${plural(block.images, "image")}]`, "more", INDENT));
      return out;
    }
    case "assistant":
      return assistantSource(block, opts);
    case "tool":
      return toolSource(block, toolModeOf(index, opts), opts);
    case "compaction": {
      const tokens =
        block.tokensBefore !== undefined
          ? ` · compacted from ${block.tokensBefore.toLocaleString("en-US")} tokens`
          : "";
      return [
        line(`[compaction]${tokens}`, "header", "", "cut"),
        ...markdownLines(sanitizeMultiline(block.summary.trim()), INDENT),
      ];
    }
    case "branch_summary":
      return [
        line("[branch summary]", "header", "", "cut"),
        ...markdownLines(sanitizeMultiline(block.summary.trim()), INDENT),
      ];
    case "custom":
      return [
        line(`[${sanitizeLine(block.customType)}]`, "header", "", "cut"),
        ...markdownLines(sanitizeMultiline(block.text.trim()), INDENT),
      ];
  }
}

/** push(...lines) takes its lines as arguments, which overflow the stack past ~100,000: a message can have more. */
function append(out: SourceLine[], lines: readonly SourceLine[]): void {
  for (const l of lines) out.push(l);
}

function assistantSource(block: Extract<Block, { kind: "assistant" }>, opts: LayoutOptions): SourceLine[] {
  const out = [line(block.model ? `Assistant · ${sanitizeLine(block.model)}` : "Assistant", "header", "", "cut")];
  const gap = () => {
    if (out.length > 1) out.push(line("", "blank", "", "cut"));
  };
  for (let i = 0; i < block.parts.length; i++) {
    const part = block.parts[i];
    if (part.type === "text") {
      gap();
      append(out, markdownLines(sanitizeMultiline(part.text.trim()), INDENT));
      continue;
    }
    // A run of thinking parts shows as one (hidden: one line, as pi's "Thinking...").
    const run: string[] = [];
    for (; i < block.parts.length && block.parts[i].type === "thinking"; i++) run.push(block.parts[i].text.trim());
    i--;
    gap();
    if (opts.thinking) append(out, markdownLines(sanitizeMultiline(run.join("\n\n")), INDENT, "thinking"));
    else out.push(line("Thinking…", "thinking", INDENT, "cut"));
  }
  if (block.error) {
    gap();
    out.push(line(block.error === "aborted" ? "(aborted)" : `Error: ${sanitizeLine(block.error)}`, "error", INDENT));
  }
  if (out.length === 1 && !block.toolsOnly) out.push(line("(no content)", "more", INDENT, "cut"));
  return out;
}

function toolSource(block: ToolBlock, mode: ToolMode, opts: LayoutOptions): SourceLine[] {
  const title = sanitizeLine(block.title);
  if (mode === "collapsed") {
    // A result not read yet is described by its size on disk: reading it is what collapsing saves.
    const info =
      block.output !== undefined
        ? block.output.length === 0
          ? "no output"
          : outputSize(block.output)
        : block.load
          ? formatBytes(block.bytes ?? 0)
          : "no result";
    const extra = [info, ...(block.images ? [plural(block.images, "image")] : []), ...(block.isError ? ["error"] : [])];
    return [line(`▸ ${title} · ${extra.join(" · ")}`, "tool", INDENT, "cut")];
  }
  const loaded = block.output === undefined && block.load ? block.load() : undefined;
  const output = loaded ? loaded.output : block.output;
  const isError = loaded ? loaded.isError : block.isError;
  const images = loaded ? loaded.images : block.images;
  const out = [line(`▾ ${title}`, "tool", INDENT, "word", `${INDENT}  `)];
  if (output === undefined) {
    out.push(line("(no result)", "more", OUTPUT_INDENT, "cut"));
    return out;
  }
  const style: LineStyle = isError ? "error" : "output";
  if (mode === "full") {
    const body = sanitizeMultiline(withoutTrailingNewlines(output));
    if (body) for (const l of body.split("\n")) out.push(line(l, style, OUTPUT_INDENT, "hard"));
    else out.push(line("(no output)", "more", OUTPUT_INDENT, "cut"));
  } else {
    const max = Math.max(1, opts.truncatedLines ?? 10);
    const head = output.slice(0, max * HEAD_CHARS_PER_LINE);
    const lines = withoutTrailingNewlines(head).split("\n");
    const shown = lines.slice(0, max);
    if (shown.length === 1 && shown[0] === "") out.push(line("(no output)", "more", OUTPUT_INDENT, "cut"));
    else for (const l of shown) out.push(line(sanitizeMultiline(l), style, OUTPUT_INDENT, "cut"));
    const cutShort = lines.length > max || head.length < output.length;
    if (cutShort) {
      // What is left: whole lines when the output is small enough to count.
      let rest: string;
      if (output.length <= COUNT_LINES_UP_TO) {
        const left = countLines(withoutTrailingNewlines(output)) - shown.length;
        rest = left > 0 ? `${plural(left, "more line")}` : "more";
      } else rest = `${formatBytes(output.length)} in all`;
      out.push(line(`… ${rest} (t: full output)`, "more", OUTPUT_INDENT, "cut"));
    }
  }
  if (images) out.push(line(`[${plural(images, "image")}]`, "more", OUTPUT_INDENT, "cut"));
  return out;
}

/** Prefixes are gutters, spaces and list markers: one column a character. Two columns stay free: a wide character fits. */
function fitPrefix(prefix: string, width: number): string {
  return prefix.length <= width - 2 ? prefix : prefix.slice(0, Math.max(0, width - 2));
}

/** Wraps source lines to display lines; a blank line ends the block. */
export function layoutSource(source: readonly SourceLine[], block: number, width: number): DisplayLine[] {
  const out: DisplayLine[] = [];
  for (let j = 0; j < source.length; j++) {
    const s = source[j];
    if (s.style === "blank") {
      out.push({ block, text: "", style: "blank", src: j, start: 0, end: 0, prefix: 0 });
      continue;
    }
    // A prefix never takes the whole width (deep lists in a narrow pane).
    const first = fitPrefix(s.first, width);
    const rest = fitPrefix(s.rest, width);
    const firstW = displayWidth(first);
    const restW = displayWidth(rest);
    if (s.style === "rule") {
      out.push({
        block,
        text: first + "─".repeat(Math.max(1, width - firstW)),
        style: "rule",
        src: j,
        start: 0,
        end: 0,
        prefix: first.length,
      });
      continue;
    }
    if (s.wrap === "cut") {
      const shown = truncateToWidth(s.text, Math.max(1, width - firstW));
      const end = shown === s.text ? s.text.length : Math.max(0, shown.length - 1);
      out.push({ block, text: first + shown, style: s.style, src: j, start: 0, end, prefix: first.length });
      continue;
    }
    const push = (a: number, b: number, isFirst: boolean) => {
      const prefix = isFirst ? first : rest;
      out.push({
        block,
        text: prefix + s.text.slice(a, b),
        style: s.style,
        src: j,
        start: a,
        end: b,
        prefix: prefix.length,
      });
    };
    if (firstW === restW) {
      const r = wrapRanges(s.text, width - firstW, s.wrap);
      for (let k = 0; k < r.length; k += 2) push(r[k], r[k + 1], k === 0);
      continue;
    }
    // A hanging indent (list items): the first line at its width, the rest at theirs.
    const firstRanges = wrapRanges(s.text, width - firstW, s.wrap);
    push(0, firstRanges[1], true);
    if (firstRanges.length === 2) continue;
    const from = firstRanges[2];
    const r = wrapRanges(s.text.slice(from), width - restW, s.wrap);
    for (let k = 0; k < r.length; k += 2) push(from + r[k], from + r[k + 1], false);
  }
  out.push({ block, text: "", style: "blank", src: -1, start: 0, end: 0, prefix: 0 });
  return out;
}

export function layoutBlock(block: Block, index: number, opts: LayoutOptions): DisplayLine[] {
  return layoutSource(blockSource(block, index, opts), index, opts.width);
}

import type { WrapMode } from "../text/wrap.js";

/*
 * Markdown, lightly: block structure only (headings, lists, quotes, rules, fenced code),
 * which is what makes a long answer readable in a terminal. Inline marks (**, `, links)
 * stay as written. Input is sanitized text; output is source lines for the layout.
 */

export type LineStyle =
  | "header"
  | "text"
  | "heading"
  | "code"
  | "quote"
  | "rule"
  | "thinking"
  | "tool"
  | "output"
  | "more"
  | "error"
  | "blank";

/** One logical line before wrapping: its text and the prefixes of its first and later display lines. */
export interface SourceLine {
  text: string;
  style: LineStyle;
  first: string;
  rest: string;
  /** cut: one display line, ended by "…" when too wide. */
  wrap: WrapMode | "cut";
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const LIST = /^( *)([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

/** Source lines of a Markdown text; `indent` starts every line. Blank-line runs become one. */
export function markdownLines(text: string, indent: string, paragraph: LineStyle = "text"): SourceLine[] {
  const out: SourceLine[] = [];
  let fence: string | undefined;
  let blank = false;
  const push = (l: SourceLine) => {
    const isBlank = l.style === "blank";
    if (isBlank && (blank || out.length === 0)) return;
    blank = isBlank;
    out.push(l);
  };
  for (const raw of text.split("\n")) {
    if (fence !== undefined) {
      const close = FENCE.exec(raw);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length && raw.trim() === close[1].trim()) {
        fence = undefined;
        continue;
      }
      // Code is set apart by a gutter and never word-wrapped.
      out.push({ text: raw, style: "code", first: `${indent}│ `, rest: `${indent}│ `, wrap: "hard" });
      blank = false;
      continue;
    }
    const open = FENCE.exec(raw);
    if (open) {
      fence = open[1];
      continue;
    }
    if (!raw.trim()) {
      push({ text: "", style: "blank", first: "", rest: "", wrap: "cut" });
      continue;
    }
    if (RULE.test(raw)) {
      push({ text: "", style: "rule", first: indent, rest: indent, wrap: "cut" });
      continue;
    }
    const h = HEADING.exec(raw);
    if (h) {
      push({ text: h[2], style: "heading", first: indent, rest: indent, wrap: "word" });
      continue;
    }
    const q = QUOTE.exec(raw);
    if (q) {
      push({ text: q[1], style: "quote", first: `${indent}│ `, rest: `${indent}│ `, wrap: "word" });
      continue;
    }
    const li = LIST.exec(raw);
    if (li) {
      // Nesting shown by the source's own indentation (capped); numbers stay, bullets become •.
      const depth = " ".repeat(Math.min(li[1].length, 8));
      const marker = /\d/.test(li[2]) ? li[2] : "•";
      push({
        text: li[3],
        style: paragraph,
        first: `${indent}${depth}${marker} `,
        rest: `${indent}${depth}${" ".repeat(marker.length + 1)}`,
        wrap: "word",
      });
      continue;
    }
    push({ text: raw, style: paragraph, first: indent, rest: indent, wrap: "word" });
  }
  while (out.length && out[out.length - 1].style === "blank") out.pop();
  return out;
}

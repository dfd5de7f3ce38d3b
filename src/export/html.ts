import { plural } from "../text/format.js";
import { sanitizeLine, sanitizeMultiline } from "../text/sanitize.js";
import type { Block } from "../transcript/blocks.js";
import { withoutTrailingNewlines } from "../transcript/layout.js";
import { markdownLines, type LineStyle } from "../transcript/markdown-light.js";
import type { ExportDocument } from "./document.js";

/*
 * One self-contained HTML page: inline CSS, no script, no external resource (the
 * Content-Security-Policy forbids any), light or dark by the reader's system setting.
 * Every text from the session is sanitized and HTML-escaped; tool outputs and thinking
 * sit in <details>, closed, so a long session stays readable.
 */

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) =>
    c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;",
  );
}

const CSS = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0;
  --user: #ddf4ff; --code: #f6f8fa; --error: #cf222e; --meta: #fff8c5; --accent: #0969da; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --border: #3d444d;
    --user: #0c2d48; --code: #161b22; --error: #ff7b72; --meta: #2e2a12; --accent: #4493f8; }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 60rem; padding: 1.5rem; background: var(--bg); color: var(--fg);
  font: 15px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { font-size: 1.4rem; margin: 0 0 .5rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 2rem 0 .25rem; border-bottom: 1px solid var(--border); }
h4 { margin: .75rem 0 .25rem; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; color: var(--muted); margin: 0 0 1rem; }
dl.meta dd { margin: 0; overflow-wrap: anywhere; font-family: ui-monospace, monospace; font-size: .9em; }
.note { color: var(--muted); font-style: italic; margin: 0 0 1rem; }
.block { margin: 1rem 0; padding: .6rem .9rem; border-radius: 8px; border: 1px solid var(--border); }
.block > .who { font-weight: 600; color: var(--muted); font-size: .85em; text-transform: uppercase; letter-spacing: .04em; }
.user { background: var(--user); }
.compaction, .branch_summary, .custom { background: var(--meta); }
.tool { padding: .3rem .9rem; }
.tool summary { cursor: pointer; font-family: ui-monospace, monospace; font-size: .9em; overflow-wrap: anywhere; }
.tool.error summary, .error-text { color: var(--error); }
.size { color: var(--muted); }
p, blockquote, pre, .li { margin: .4rem 0; }
p, .li { white-space: pre-wrap; overflow-wrap: anywhere; }
.li { display: flex; gap: .5ch; }
blockquote { border-left: 3px solid var(--border); padding-left: .8rem; color: var(--muted); white-space: pre-wrap; }
pre { background: var(--code); padding: .6rem; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere;
  font: .85em/1.45 ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
details.thinking { color: var(--muted); margin: .4rem 0; }
details.thinking summary { cursor: pointer; font-style: italic; }
hr { border: 0; border-top: 1px solid var(--border); }
code { font-family: ui-monospace, monospace; }
footer { color: var(--muted); font-size: .8em; margin-top: 2rem; }
`;

/** Light Markdown (the transcript's block rules) as HTML. */
function markdownHtml(text: string, paragraph: LineStyle = "text"): string {
  const lines = markdownLines(sanitizeMultiline(text.trim()), "", paragraph);
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    const l = lines[i];
    // Consecutive lines of one kind become one element (a paragraph, a code block, a quote).
    const run = (style: LineStyle) => {
      const texts: string[] = [];
      while (i < lines.length && lines[i].style === style && lines[i].first === l.first && !isListItem(lines[i]))
        texts.push(lines[i++].text);
      return texts.map(escapeHtml).join("\n");
    };
    if (isListItem(l)) {
      const depth = l.first.length - l.first.trimStart().length;
      out.push(
        `<div class="li" style="margin-left:${depth}ch"><span>${escapeHtml(l.first.trim())}</span><span>${escapeHtml(l.text)}</span></div>`,
      );
      i++;
    } else if (l.style === "code") out.push(`<pre><code>${run("code")}</code></pre>`);
    else if (l.style === "quote") out.push(`<blockquote>${run("quote")}</blockquote>`);
    else if (l.style === "heading") {
      out.push(`<h4>${escapeHtml(l.text)}</h4>`);
      i++;
    } else if (l.style === "rule") {
      out.push("<hr>");
      i++;
    } else if (l.style === "blank") i++;
    else out.push(`<p>${run(l.style)}</p>`);
  }
  return out.join("\n");
}

function isListItem(l: { first: string; style: LineStyle }): boolean {
  return (l.style === "text" || l.style === "thinking") && l.first.trim().length > 0;
}

function countLines(s: string): number {
  if (!s) return 0;
  let n = 1;
  for (let i = s.indexOf("\n"); i !== -1; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

function blockHtml(b: Block): string {
  const who = (label: string) => `<div class="who">${escapeHtml(label)}</div>`;
  switch (b.kind) {
    case "user":
      return `<section class="block user">${who("User")}${markdownHtml(b.text)}${b.images ? `<p class="size">[${plural(b.images, "image")}]</p>` : ""}</section>`;
    case "assistant": {
      const parts = b.parts.map((p) =>
        p.type === "text"
          ? markdownHtml(p.text)
          : `<details class="thinking"><summary>Thinking</summary>${markdownHtml(p.text, "thinking")}</details>`,
      );
      if (b.error)
        parts.push(
          `<p class="error-text">${b.error === "aborted" ? "(aborted)" : `Error: ${escapeHtml(sanitizeLine(b.error))}`}</p>`,
        );
      return `<section class="block assistant">${who(b.model ? `Assistant · ${sanitizeLine(b.model)}` : "Assistant")}${parts.join("\n")}</section>`;
    }
    case "tool": {
      const body = b.output === undefined ? undefined : sanitizeMultiline(withoutTrailingNewlines(b.output));
      const size = body === undefined ? "no result" : body ? plural(countLines(body), "line") : "no output";
      const extra = [size, ...(b.images ? [plural(b.images, "image")] : []), ...(b.isError ? ["error"] : [])].join(
        " · ",
      );
      const summary = `<summary>${escapeHtml(sanitizeLine(b.title))} <span class="size">· ${escapeHtml(extra)}</span></summary>`;
      return `<details class="block tool${b.isError ? " error" : ""}">${summary}${body ? `<pre>${escapeHtml(body)}</pre>` : ""}</details>`;
    }
    case "compaction":
      return `<section class="block compaction">${who(`Compaction${b.tokensBefore !== undefined ? ` · from ${b.tokensBefore.toLocaleString("en-US")} tokens` : ""}`)}${markdownHtml(b.summary)}</section>`;
    case "branch_summary":
      return `<section class="block branch_summary">${who("Branch summary")}${markdownHtml(b.summary)}</section>`;
    case "custom":
      return `<section class="block custom">${who(sanitizeLine(b.customType))}${markdownHtml(b.text)}</section>`;
  }
}

export function toHtml(doc: ExportDocument): string {
  const e = (s: string) => escapeHtml(sanitizeLine(s));
  const meta = [
    ["Session", doc.sessionId],
    ["Folder", doc.cwd || "?"],
    ...(doc.created ? [["Created", doc.created]] : []),
    ["Exported", doc.scope],
    ["File", doc.path],
  ]
    .map(([k, v]) => `<dt>${k}</dt><dd>${e(v)}</dd>`)
    .join("");
  const body: string[] = [];
  for (const s of doc.sections) {
    if (s.heading) body.push(`<h2>${e(s.heading)}</h2>${s.note ? `<p class="note">${e(s.note)}</p>` : ""}`);
    if (s.blocks.length === 0) body.push(`<p class="note">(no messages)</p>`);
    for (const b of s.blocks) body.push(blockHtml(b));
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="generator" content="pi-sessions">
<title>${e(doc.title)}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>${e(doc.title)}</h1>
<dl class="meta">${meta}</dl>
</header>
<main>
${body.join("\n")}
</main>
<footer>Exported by pi-sessions.</footer>
</body>
</html>
`;
}

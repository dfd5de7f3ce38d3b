import { formatCostExact, groupDigits, plural } from "../../text/format.js";
import { loadSessionIndex, type SessionIndex } from "../../store/session-index.js";
import { activePath } from "../../model/tree.js";
import { buildContext, usageTotals } from "../../model/context.js";
import { sanitizeLine } from "../../text/sanitize.js";
import { usageError } from "../common/errors.js";
import { quietIO, type CliIO } from "../common/io.js";
import { output } from "../common/output.js";
import { parse, STORE_OPTION, QUIET_OPTION } from "../common/parse.js";
import { resolveSession } from "../common/resolve-session.js";
import { storeFromArgs } from "../common/store-arg.js";
import { alignRows } from "../common/table.js";

export function showJson(index: SessionIndex): Record<string, unknown> {
  const context = buildContext(index);
  return {
    path: index.path,
    header: index.header,
    name: index.name ?? null,
    leafId: index.leafId,
    activePath: activePath(index),
    labels: Object.fromEntries(index.labels),
    // pi's /session totals: every usage the file records, on any branch.
    usage: usageTotals(index),
    // What the model sees at the leaf: pi's context entries and message roles, and the
    // context edits in effect there (omit, or replace with the given text).
    context: {
      entryIds: context.entryIds,
      roles: context.roles,
      edits: Object.fromEntries(
        [...context.edits].map(([target, e]) => [
          target,
          { editId: e.editId, kind: e.kind, ...(e.text !== undefined ? { text: e.text } : {}) },
        ]),
      ),
    },
    entries: index.nodes.map((n) => ({
      id: n.id,
      parentId: n.parentId,
      type: n.type,
      timestamp: n.timestamp,
      ...(n.role ? { role: n.role } : {}),
      ...(n.text ? { text: n.text } : {}),
      ...(index.labels.has(n.id) ? { label: index.labels.get(n.id) } : {}),
      ...(n.usage ? { usage: n.usage } : {}),
      ...(n.type === "context_edit"
        ? { targetId: n.targetId ?? null, edit: n.edit, ...(n.editText !== undefined ? { editText: n.editText } : {}) }
        : {}),
    })),
    warnings: index.warnings,
  };
}

/** pi's /session totals in one line, digits grouped (show --json has the exact numbers). */
function usageLine(u: ReturnType<typeof usageTotals>): string {
  const t = u.tokens;
  const g = groupDigits;
  const left = u.ignored ? ` (${plural(u.ignored, "usage figure")} left out: negative, not a number or too large)` : "";
  return `${g(t.total)} tokens (in ${g(t.input)}, out ${g(t.output)}, cache read ${g(t.cacheRead)}, write ${g(t.cacheWrite)}), ${formatCostExact(u.cost)}${left}`;
}

/**
 * The session as text. Entry rows are aligned whatever their kind (thinking_level_change
 * is wider than a message role); on a terminal (`columns`) each row is cut to its width,
 * in a pipe it carries the entry's whole preview text.
 */
export function showText(index: SessionIndex, columns?: number): string {
  const active = new Set(activePath(index));
  const context = buildContext(index);
  const h = index.header;
  const line = (v: unknown) => sanitizeLine(String(v ?? ""));
  const lines = [
    `path:     ${line(index.path)}`,
    `id:       ${line(h.id)}`,
    `cwd:      ${line(h.cwd)}`,
    `created:  ${h.timestamp ? line(h.timestamp) : "?"}`,
    ...(index.name ? [`name:     ${line(index.name)}`] : []),
    ...(h.parentSession ? [`parent:   ${line(h.parentSession)}`] : []),
    `entries:  ${groupDigits(index.nodes.length)} (leaf ${index.leafId ? line(index.leafId) : "none"}; * = active path)`,
    `usage:    ${usageLine(usageTotals(index))}`,
    "",
  ];
  const rows = index.nodes.map((n) => {
    const label = index.labels.get(n.id);
    const edit = context.edits.get(n.id);
    const text =
      (label ? `[${line(label)}] ` : "") +
      (edit
        ? `(${edit.kind === "omit" ? "omitted from the model's context" : "replaced for the model"} by ${line(edit.editId)}) `
        : "") +
      line(n.text);
    return [`${active.has(n.id) ? "*" : " "} ${line(n.id)}`, line(n.role ?? n.type), text];
  });
  lines.push(...alignRows(rows, { columns }));
  for (const w of index.warnings) lines.push(`warning: ${line(w)}`);
  return `${lines.join("\n")}\n`;
}

export async function showCommand(args: string[], given: CliIO): Promise<number> {
  const { values, positionals } = parse(args, { ...STORE_OPTION, ...QUIET_OPTION, json: { type: "boolean" } });
  const io = quietIO(given, values.quiet);
  const out = output(io);
  if (positionals.length !== 1) throw usageError("show takes one <session> (path, id or unique id prefix)");
  const path = await resolveSession(positionals[0], () => storeFromArgs(values["session-dir"], io).dir, io.cwd, {
    note: out.note,
  });
  const index = await loadSessionIndex(path);
  if (values.json) out.json(showJson(index));
  else out.text(showText(index, io.columns));
  return 0;
}

import { plural } from "../../text/format.js";
import { loadSessionIndex, type SessionIndex } from "../../store/session-index.js";
import { activePath } from "../../model/tree.js";
import { buildContext, usageTotals } from "../../model/context.js";
import { sanitizeLine } from "../../text/sanitize.js";
import { safeJson } from "../common/json.js";
import { usageError } from "../common/errors.js";
import type { CliIO } from "../common/io.js";
import { parse, STORE_OPTION } from "../common/parse.js";
import { resolveSession } from "../common/resolve-session.js";
import { storeFromArgs } from "../common/store-arg.js";

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

/** pi's /session totals in one line. */
function usageLine(u: ReturnType<typeof usageTotals>): string {
  const t = u.tokens;
  const left = u.ignored ? ` (${plural(u.ignored, "usage figure")} left out: negative, not a number or too large)` : "";
  return `${t.total} tokens (in ${t.input}, out ${t.output}, cache read ${t.cacheRead}, write ${t.cacheWrite}), $${u.cost.toFixed(6).replace(/0+$/, "").replace(/\.$/, "")}${left}`;
}

export function showText(index: SessionIndex): string {
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
    `entries:  ${index.nodes.length} (leaf ${index.leafId ? line(index.leafId) : "none"}; * = active path)`,
    `usage:    ${usageLine(usageTotals(index))}`,
    "",
  ];
  for (const n of index.nodes) {
    const kind = line(n.role ?? n.type);
    const label = index.labels.get(n.id);
    const edit = context.edits.get(n.id);
    const text =
      (edit
        ? `(${edit.kind === "omit" ? "omitted from the model's context" : "replaced for the model"} by ${edit.editId}) `
        : "") + line(n.text).slice(0, 100);
    lines.push(
      `${active.has(n.id) ? "*" : " "} ${line(n.id)}  ${kind.padEnd(14)} ${label ? `[${line(label)}] ` : ""}${text}`,
    );
  }
  for (const w of index.warnings) lines.push(`warning: ${line(w)}`);
  return `${lines.join("\n")}\n`;
}

export async function showCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, { ...STORE_OPTION, json: { type: "boolean" } });
  if (positionals.length !== 1) throw usageError("show takes one <session> (path, id or unique id prefix)");
  const path = await resolveSession(positionals[0], () => storeFromArgs(values["session-dir"], io).dir, io.cwd);
  const index = await loadSessionIndex(path);
  io.stdout(values.json ? `${safeJson(showJson(index))}\n` : showText(index));
  return 0;
}

import type { SessionIndex } from "../model/index-types.js";
import { branchThrough } from "./branch.js";
import { exportDocument } from "./document.js";
import { toHtml } from "./html.js";
import { toJsonl } from "./jsonl.js";
import { toMarkdown } from "./markdown.js";

export type ExportFileFormat = "md" | "html" | "jsonl";

/**
 * The one export dispatch (the CLI's `export` and the browser's e): a session as Markdown,
 * HTML or JSONL. `branch` names the branch through an entry (the active one when absent);
 * `allBranches` writes every branch (md and html; a JSONL export is one branch).
 */
export function exportText(
  index: SessionIndex,
  format: ExportFileFormat,
  scope: { branch?: string; allBranches?: boolean } = {},
): string {
  if (format === "jsonl") return toJsonl(index, branchThrough(index, scope.branch));
  const doc = exportDocument(index, scope.allBranches ? { allBranches: true } : { branch: scope.branch });
  return format === "html" ? toHtml(doc) : toMarkdown(doc);
}

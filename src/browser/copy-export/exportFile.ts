import { join } from "node:path";
import { writeNew } from "../../actions/fork.js";
import { exportText as exportFileText } from "../../export/export-text.js";
import type { SessionIndex } from "../../store/session-index.js";

export type ExportFormat = "md" | "mdAll" | "html" | "jsonl";

export const EXPORT_LABEL: Record<ExportFormat, string> = {
  md: "Markdown",
  mdAll: "Markdown of every branch",
  html: "HTML",
  jsonl: "the branch as a session (JSONL)",
};

/** The export's text: `leafId` names the branch (the active one when absent). */
export function exportText(index: SessionIndex, format: ExportFormat, leafId?: string): string {
  return format === "mdAll"
    ? exportFileText(index, "md", { allBranches: true })
    : exportFileText(index, format, { branch: leafId });
}

/** `pi-session-<id8>[-all-branches].<ext>`: the session's id keeps exports of different sessions apart. */
export function exportBaseName(sessionId: string, format: ExportFormat): { stem: string; ext: string } {
  const id = (sessionId.replace(/[^A-Za-z0-9-]/g, "").slice(0, 8) || "export").toLowerCase();
  const stem = `pi-session-${id}${format === "mdAll" ? "-all-branches" : ""}`;
  return { stem, ext: format === "html" ? "html" : format === "jsonl" ? "jsonl" : "md" };
}

/**
 * Writes `text` to a new file in `dir` and returns its path: the first free name of
 * stem.ext, stem-2.ext, stem-3.ext …; a file that exists is never replaced (the write
 * itself refuses, so a file appearing meanwhile is not overwritten either).
 */
export function writeExport(
  dir: string,
  stem: string,
  ext: string,
  text: string,
  write: (path: string, text: string) => void = writeNew,
): string {
  for (let n = 1; n < 1000; n++) {
    const path = join(dir, `${stem}${n === 1 ? "" : `-${n}`}.${ext}`);
    try {
      write(path, text);
      return path;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  throw new Error(`no free file name for ${stem}.${ext} in ${dir}`);
}

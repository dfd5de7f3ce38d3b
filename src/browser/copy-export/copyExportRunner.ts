import { relative } from "node:path";
import { sharedIndexCache } from "../../store/index-cache.js";
import { readEntriesSync } from "../../store/read-entries.js";
import type { SessionIndex } from "../../store/session-index.js";
import { describeEntry } from "../../model/text.js";
import { sanitizeLine } from "../../text/sanitize.js";
import type { Outcome } from "../core/outcome.js";
import { copyRefusal, sizeNote } from "./copyText.js";
import { EXPORT_LABEL, exportBaseName, exportText, writeExport } from "./exportFile.js";
import type { TakeoutAction, TakeoutEffect } from "./copyExportTypes.js";

/** The I/O behind copy, export and `n`; tests pass fakes. */
export interface TakeoutIO {
  /** The clipboard (OSC 52 to the terminal the UI draws on); absent: nothing can be copied. */
  copy?(text: string): void;
  loadIndex(path: string): Promise<SessionIndex>;
  /** The text of a tree entry, as `y` copies it (a synchronous read of its one line). */
  entryText(index: SessionIndex, entryId: string): string;
  /** Writes a new file (never replacing one); throws EEXIST when the name is taken. */
  write?(path: string, text: string): void;
  cwdExists(dir: string): boolean;
  /** Why pi cannot be started (for `n`), or undefined; not checked when absent. */
  piProblem?(): string | undefined;
}

export const realTakeoutIO: Omit<TakeoutIO, "cwdExists"> = {
  loadIndex: (path) => sharedIndexCache.get(path),
  entryText: (index, entryId) => {
    const d = describeEntry(readEntriesSync(index, [entryId])[0]);
    return d.text || d.toolCalls.join("\n");
  },
};

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Carries out one copy, export or new-session request; the result comes back as takeout.done (or the browser exits). */
export function runTakeoutEffect(
  e: TakeoutEffect,
  io: TakeoutIO,
  dispatch: (a: TakeoutAction) => void,
  exit: (o: Outcome) => void,
): void {
  const done = (text: string, tone: "info" | "note" | "error" = "info") =>
    dispatch({ type: "takeout.done", text, tone });
  const copy = (text: string, what: string) => {
    if (!io.copy) return done("no clipboard: the terminal cannot be written to", "error");
    const refused = copyRefusal(text);
    if (refused) return done(refused, "error");
    io.copy(text);
    done(`copied ${what} (OSC 52)`);
  };
  switch (e.type) {
    case "copy":
      copy(e.text, e.what);
      return;
    case "copyEntry": {
      let text: string;
      try {
        text = io.entryText(e.index, e.entryId);
      } catch (err) {
        done(`copy failed: ${message(err)}`, "error");
        return;
      }
      if (text) copy(text, `the entry's text (${sizeNote(text)})`);
      else done("the entry has no text to copy", "note");
      return;
    }
    case "export":
      io.loadIndex(e.path)
        .then((index) => {
          const { stem, ext } = exportBaseName(String(index.header.id ?? ""), e.format);
          const path = writeExport(e.dir, stem, ext, exportText(index, e.format, e.leafId), io.write);
          const shown = relative(e.dir, path);
          done(`exported ${EXPORT_LABEL[e.format]} to ./${sanitizeLine(shown)}`);
        })
        .catch((err) => done(`export failed: ${message(err)}`, "error"));
      return;
    case "newSession": {
      const problem = io.piProblem?.();
      if (problem) done(problem, "error");
      else if (io.cwdExists(e.cwd)) exit({ kind: "new", cwd: e.cwd });
      else done(`the session's folder is gone: ${sanitizeLine(e.cwd)}`, "error");
      return;
    }
  }
}

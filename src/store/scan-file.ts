import { statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { SummaryBuilder } from "../model/summary.js";
import type { Diagnostic, SessionProbe, SessionSummary } from "../model/types.js";
import type { SessionFile } from "./discover.js";
import { fsPath } from "./fs-path.js";
import { readLines, readLinesSync } from "./line-reader.js";
import { LIST_SKIM_THRESHOLD } from "./parse-line.js";
import { SessionReader } from "./session-reader.js";

export type FileScan = { kind: "session"; summary: SessionSummary } | { kind: "diagnostic"; diagnostic: Diagnostic };

function errorDiagnostic(path: string, err: unknown): Diagnostic {
  const code = (err as NodeJS.ErrnoException).code;
  return { path, kind: "unreadable", reason: code ? `cannot read (${code})` : String((err as Error).message ?? err) };
}

/** Streams a whole file into its summary. Never throws: problems become diagnostics. */
export async function scanSessionFile(
  file: SessionFile | string,
  options: { skim?: boolean; sync?: boolean } = {},
): Promise<FileScan> {
  const path = typeof file === "string" ? file : file.path;
  try {
    const st =
      typeof file === "string"
        ? await stat(fsPath(path))
        : { size: file.bytes, mtimeMs: file.mtimeMs, ctimeMs: file.ctimeMs };
    const builder = new SummaryBuilder();
    const reader = new SessionReader(builder, options.skim ?? true, LIST_SKIM_THRESHOLD);
    const res = await readLines(
      path,
      (ref) => {
        reader.push(ref);
        return !reader.done;
      },
      { sync: options.sync },
    );
    return fileScanOf(path, st, reader, builder, res.bytesRead);
  } catch (err) {
    return { kind: "diagnostic", diagnostic: errorDiagnostic(path, err) };
  }
}

/**
 * scanSessionFile, blocking: one file summarized where nothing may wait (a `list --json` row
 * whose kept text turned out unreadable while the answer is being written). Never throws.
 */
export function scanSessionFileSync(path: string): FileScan {
  try {
    const st = statSync(fsPath(path));
    const builder = new SummaryBuilder();
    const reader = new SessionReader(builder, true, LIST_SKIM_THRESHOLD);
    const res = readLinesSync(path, (ref) => {
      reader.push(ref);
      return !reader.done;
    });
    return fileScanOf(path, st, reader, builder, res.bytesRead);
  } catch (err) {
    return { kind: "diagnostic", diagnostic: errorDiagnostic(path, err) };
  }
}

/** A file read through: its summary, or why it is none. */
function fileScanOf(
  path: string,
  st: { size: number; mtimeMs: number; ctimeMs?: number },
  reader: SessionReader,
  builder: SummaryBuilder,
  bytesRead: number,
): FileScan {
  if (!reader.header) {
    if (bytesRead === 0) return { kind: "diagnostic", diagnostic: { path, kind: "empty", reason: "empty file" } };
    const reason = reader.rejected ?? (reader.skipped > 0 ? "no parsable line" : "only blank lines");
    return { kind: "diagnostic", diagnostic: { path, kind: "not-a-session", reason } };
  }
  if (builder.unlisted) {
    return {
      kind: "diagnostic",
      diagnostic: {
        path,
        kind: "not-listed-by-pi",
        reason: `not listed (as pi 1.5.2 does not list it): ${builder.unlisted}`,
      },
    };
  }
  const summary = builder.finish({
    path,
    header: reader.header,
    bytes: Math.max(st.size, bytesRead),
    mtimeMs: st.mtimeMs,
    ctimeMs: st.ctimeMs,
    version: reader.version,
    warnings: reader.warnings,
  });
  return { kind: "session", summary };
}

export const PROBE_BYTES = 8 * 1024;

/**
 * Reads at most the first few KB: enough for the header and usually the first user
 * message, so the first screen can be drawn before any file is read in full.
 * Returns null when the probe can't tell (the header line is longer than the probe).
 */
export async function probeSessionFile(
  file: SessionFile,
  maxBytes = PROBE_BYTES,
  options: { sync?: boolean } = {},
): Promise<SessionProbe | Diagnostic | null> {
  try {
    const builder = new SummaryBuilder();
    const reader = new SessionReader(builder, false);
    await readLines(
      file.path,
      (ref) => {
        reader.push(ref);
        return !reader.done && !builder.firstMessage;
      },
      { maxBytes, chunkSize: maxBytes, sync: options.sync },
    );
    if (reader.rejected) return { path: file.path, kind: "not-a-session", reason: reader.rejected };
    const h = reader.header;
    if (!h) return file.bytes === 0 ? { path: file.path, kind: "empty", reason: "empty file" } : null;
    return {
      path: file.path,
      id: h.id,
      cwd: typeof h.cwd === "string" ? h.cwd : "",
      created: new Date(typeof h.timestamp === "string" ? h.timestamp : NaN),
      parentSessionPath: typeof h.parentSession === "string" ? h.parentSession : undefined,
      firstMessage: builder.firstMessage || undefined,
      name: builder.name,
      bytes: file.bytes,
      mtimeMs: file.mtimeMs,
    };
  } catch (err) {
    return errorDiagnostic(file.path, err);
  }
}

export function isDiagnostic(x: unknown): x is Diagnostic {
  return !!x && typeof x === "object" && "kind" in x && "reason" in x;
}

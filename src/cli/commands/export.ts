import { closeSync, existsSync, openSync, readSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, extname, resolve } from "node:path";
import { writeNew } from "../../actions/fork.js";
import { UnknownEntryError } from "../../export/branch.js";
import { exportText } from "../../export/export-text.js";
import { loadSessionIndex } from "../../store/session-index.js";
import { CliError, usageError } from "../common/errors.js";
import { quietIO, type CliIO } from "../common/io.js";
import { output } from "../common/output.js";
import { parse, STORE_OPTION, QUIET_OPTION } from "../common/parse.js";
import { resolveSession } from "../common/resolve-session.js";
import { storeFromArgs } from "../common/store-arg.js";

const FORMATS = ["md", "html", "jsonl"] as const;
type Format = (typeof FORMATS)[number];

/** --format, else the output file's extension, else Markdown. */
export function formatOf(flag: string | undefined, output: string | undefined): Format {
  if (flag !== undefined) {
    const f = flag.toLowerCase() === "markdown" ? "md" : flag.toLowerCase();
    if (!(FORMATS as readonly string[]).includes(f)) throw usageError(`unknown format '${flag}' (md, html or jsonl)`);
    return f as Format;
  }
  const ext = output ? extname(output).toLowerCase() : "";
  if (ext === ".html" || ext === ".htm") return "html";
  if (ext === ".jsonl") return "jsonl";
  return "md";
}

/** The file starts with a pi session header (what --force must never replace). */
export function isSessionFile(path: string): boolean {
  try {
    const fd = openSync(path, "r");
    try {
      const buf = Buffer.alloc(512);
      const n = readSync(fd, buf, 0, buf.length, 0);
      return /^\s*\{\s*"type"\s*:\s*"session"/.test(buf.toString("utf8", 0, n));
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** Replaces `path` whole: written beside it, then renamed over it, so a reader never sees half a file. */
export function replaceFile(path: string, text: string): void {
  const tmp = `${path}.pi-sessions-${process.pid}.tmp`;
  writeNew(tmp, text);
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** export's options (a host's export takes the same: src/remote/cli-remote.ts). */
export const EXPORT_OPTIONS = {
  ...STORE_OPTION,
  format: { type: "string", short: "f" },
  branch: { type: "string" },
  "all-branches": { type: "boolean" },
  output: { type: "string", short: "o" },
  force: { type: "boolean" },
  ...QUIET_OPTION,
} as const;

export async function exportCommand(args: string[], given: CliIO): Promise<number> {
  const { values, positionals } = parse(args, EXPORT_OPTIONS);
  const io = quietIO(given, values.quiet);
  if (positionals.length !== 1) throw usageError("export takes one <session> (path, id or unique id prefix)");
  const format = formatOf(values.format, values.output);
  const all = values["all-branches"] === true;
  if (all && values.branch !== undefined) throw usageError("--branch and --all-branches do not go together");
  if (all && format === "jsonl")
    throw usageError("a JSONL export is one branch (a session pi opens); --all-branches is for md and html");
  // `-o -` is stdout, as in most Unix tools (a file named "-" is `-o ./-`); --force has nothing to replace then.
  const out = values.output === undefined || values.output === "-" ? undefined : resolve(io.cwd, values.output);
  // Checked before the work and again by the write itself (which never replaces a file
  // unless --force, and never a session file).
  if (out !== undefined && existsSync(out) && !values.force)
    throw new CliError(`${out} already exists; not overwriting it (--force replaces it)`);
  if (out !== undefined && values.force && isSessionFile(out))
    throw new CliError(`${out} is a pi session; export never writes over one, --force or not`);
  if (out !== undefined && !statSync(dirname(out), { throwIfNoEntry: false })?.isDirectory())
    throw new CliError(`no folder ${dirname(out)} to write ${out} into`);

  const path = await resolveSession(positionals[0], () => storeFromArgs(values["session-dir"], io).dir, io.cwd, {
    note: output(io).note,
  });
  const index = await loadSessionIndex(path, { skim: true });
  let text: string;
  try {
    text = exportText(index, format, { branch: values.branch, allBranches: all });
  } catch (err) {
    if (err instanceof UnknownEntryError) throw new CliError(`no entry ${err.entryId} in ${path}`);
    throw err;
  }
  if (out === undefined) {
    output(io).document(text, format === "jsonl" ? "json" : "text");
    return 0;
  }
  try {
    if (values.force) replaceFile(out, text);
    else writeNew(out, text);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST")
      throw new CliError(`${out} already exists; not overwriting it (--force replaces it)`);
    throw err;
  }
  output(io).note(
    `exported ${format === "jsonl" ? "the branch as a session" : format === "html" ? "HTML" : "Markdown"} to ${out}\n`,
  );
  return 0;
}

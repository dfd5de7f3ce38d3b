import { existsSync, statSync } from "node:fs";
import { dirname, extname, resolve } from "node:path";
import { writeNew } from "../../actions/fork.js";
import { branchThrough, UnknownEntryError } from "../../export/branch.js";
import { exportDocument } from "../../export/document.js";
import { toHtml } from "../../export/html.js";
import { toJsonl } from "../../export/jsonl.js";
import { toMarkdown } from "../../export/markdown.js";
import { loadSessionIndex } from "../../model/session-index.js";
import { CliError, usageError } from "../errors.js";
import type { CliIO } from "../io.js";
import { parse, STORE_OPTION } from "../parse.js";
import { resolveSession } from "../resolve-session.js";
import { storeFromArgs } from "../store-arg.js";

const FORMATS = ["md", "html", "jsonl"] as const;
type Format = (typeof FORMATS)[number];

/** --format, else the output file's extension, else Markdown. */
function formatOf(flag: string | undefined, output: string | undefined): Format {
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

export async function exportCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, {
    ...STORE_OPTION,
    format: { type: "string", short: "f" },
    branch: { type: "string" },
    "all-branches": { type: "boolean" },
    output: { type: "string", short: "o" },
  });
  if (positionals.length !== 1) throw usageError("export takes one <session> (path, id or unique id prefix)");
  const format = formatOf(values.format, values.output);
  const all = values["all-branches"] === true;
  if (all && values.branch !== undefined) throw usageError("--branch and --all-branches do not go together");
  if (all && format === "jsonl") throw usageError("a JSONL export is one branch (a session pi opens); --all-branches is for md and html");
  const out = values.output === undefined ? undefined : resolve(io.cwd, values.output);
  // Checked before the work and again by the write itself (which never replaces a file).
  if (out !== undefined && existsSync(out)) throw new CliError(`${out} already exists; not overwriting it`);
  if (out !== undefined && !statSync(dirname(out), { throwIfNoEntry: false })?.isDirectory()) throw new CliError(`no folder ${dirname(out)} to write ${out} into`);

  const path = await resolveSession(positionals[0], () => storeFromArgs(values["session-dir"], io).dir, io.cwd);
  const index = await loadSessionIndex(path, { skim: true });
  let text: string;
  try {
    if (format === "jsonl") text = toJsonl(index, branchThrough(index, values.branch));
    else {
      const doc = exportDocument(index, { branch: values.branch, allBranches: all });
      text = format === "html" ? toHtml(doc) : toMarkdown(doc);
    }
  } catch (err) {
    if (err instanceof UnknownEntryError) throw new CliError(`no entry ${err.entryId} in ${path}`);
    throw err;
  }
  if (out === undefined) {
    io.stdout(text);
    return 0;
  }
  try {
    writeNew(out, text);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") throw new CliError(`${out} already exists; not overwriting it`);
    throw err;
  }
  io.stderr(`exported ${format === "jsonl" ? "the branch as a session" : format === "html" ? "HTML" : "Markdown"} to ${out}\n`);
  return 0;
}

import { basename } from "node:path";
import { insideFolder, readTrashLog, restoreFile, type TrashRecord } from "../../actions/trash/index.js";
import { CliError, usageError } from "../common/errors.js";
import { quietIO, type CliIO } from "../common/io.js";
import { output } from "../common/output.js";
import { parse, STORE_OPTION, QUIET_OPTION } from "../common/parse.js";
import { storeFromArgs } from "../common/store-arg.js";
import { sanitizeLine } from "../../text/sanitize.js";

/** Trash-log records matching a session path, file name, id or unique id prefix. */
export function matchRecords(records: TrashRecord[], arg: string): TrashRecord[] {
  const exact = records.filter((r) => r.original === arg || basename(r.original) === arg || r.sessionId === arg);
  if (exact.length) return exact;
  return records.filter((r) => r.sessionId?.startsWith(arg) || basename(r.original).includes(arg));
}

export async function restoreCommand(args: string[], given: CliIO): Promise<number> {
  const { values, positionals } = parse(args, { ...STORE_OPTION, ...QUIET_OPTION, last: { type: "boolean" } });
  const io = quietIO(given, values.quiet);
  const out = output(io);
  if (!values.last && positionals.length === 0)
    throw usageError("restore needs a <session> (id, path or file name) or --last (see pi-sessions restore --help)");
  if (values.last ? positionals.length > 0 : positionals.length > 1)
    throw usageError("restore takes one <session> or --last");
  if (positionals.length === 1 && !positionals[0].trim())
    throw usageError("the session must not be empty (give a path, an id or an id prefix)");
  // The log is the user's, across stores: restore looks only at this store's sessions.
  const store = storeFromArgs(values["session-dir"], io).dir;
  const records = readTrashLog(io.env).filter((r) => insideFolder(store, r.original));
  let chosen: TrashRecord[];
  if (values.last) {
    const batch = records.at(-1)?.batch;
    chosen = records.filter((r) => r.batch === batch);
    if (!chosen.length)
      throw new CliError(`nothing that pi-sessions trashed from ${sanitizeLine(store)} is still in the trash`);
  } else {
    chosen = matchRecords(records, positionals[0]);
    if (!chosen.length) throw new CliError(`no trashed session matches '${positionals[0]}'`);
    if (new Set(chosen.map((r) => r.original)).size > 1) {
      throw new CliError(`'${positionals[0]}' matches ${chosen.length} trashed sessions; give a full id or path`);
    }
    chosen = [chosen.at(-1)!];
  }
  for (const r of chosen) {
    restoreFile(r);
    out.text(`restored ${sanitizeLine(r.original)}\n`);
  }
  return 0;
}

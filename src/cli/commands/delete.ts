import { mayBeOpenInPi, OPEN_IN_PI_WARNING } from "../../actions/recent-write.js";
import { statSync } from "node:fs";
import { deletePermanently, trashSessions, type DeleteTarget } from "../../actions/trash/index.js";
import { fsPath } from "../../store/fs-path.js";
import { isDiagnostic, probeSessionFile } from "../../store/scan-file.js";
import { formatBytes, plural } from "../../text/format.js";
import { sanitizeLine } from "../../text/sanitize.js";
import { CliError, usageError } from "../common/errors.js";
import { quietIO, type CliIO } from "../common/io.js";
import { output } from "../common/output.js";
import { parse, STORE_OPTION, QUIET_OPTION } from "../common/parse.js";
import { resolveSession } from "../common/resolve-session.js";
import { restoreHint } from "../common/restore-hint.js";
import { storeFromArgs } from "../common/store-arg.js";

const HEADER_PROBE_BYTES = 64 * 1024;

/** Only pi sessions are deleted, as `rename` only writes to them: a path could name any file. Gives the session's id. */
async function requireSession(path: string, bytes: number, mtimeMs: number): Promise<string> {
  const probe = await probeSessionFile({ path, bytes, mtimeMs }, HEADER_PROBE_BYTES);
  if (probe && !isDiagnostic(probe)) return probe.id;
  const reason = probe ? probe.reason : `no session header in its first ${HEADER_PROBE_BYTES / 1024} KiB`;
  throw new CliError(`${path} is not a pi session: ${reason}; nothing deleted`);
}

/** The store's folder, for the undo hint only: its warnings were said already, a store that is not there is none. */
function storeDir(flag: string | undefined, io: CliIO): string | undefined {
  try {
    return storeFromArgs(flag, quietIO(io, true)).dir;
  } catch {
    return undefined;
  }
}

/** delete's options (a host's delete takes the same: src/remote/cli-remote.ts). */
export const DELETE_OPTIONS = {
  ...STORE_OPTION,
  ...QUIET_OPTION,
  permanent: { type: "boolean" },
  yes: { type: "boolean", short: "y" },
} as const;

export async function deleteCommand(args: string[], given: CliIO): Promise<number> {
  const { values, positionals } = parse(args, DELETE_OPTIONS);
  const io = quietIO(given, values.quiet);
  const out = output(io);
  if (!positionals.length) throw usageError("delete takes one or more <session> (path, id or unique id prefix)");
  if (!values.yes && !io.isTTY)
    throw new CliError("refusing to delete without a terminal to confirm on; pass --yes to confirm");
  const targets: DeleteTarget[] = [];
  for (const arg of positionals) {
    const path = await resolveSession(arg, () => storeFromArgs(values["session-dir"], io).dir, io.cwd, { write: true });
    const st = statSync(fsPath(path));
    // The id goes into the trash log: `restore <id>` finds it whatever the file is called.
    const sessionId = await requireSession(path, st.size, st.mtimeMs);
    targets.push({ path, sessionId, bytes: st.size, mtimeMs: st.mtimeMs });
  }
  const total = targets.reduce((n, t) => n + (t.bytes ?? 0), 0);
  for (const t of targets) {
    if (mayBeOpenInPi(t.mtimeMs ?? 0, Date.now())) out.note(`warning: ${sanitizeLine(t.path)} ${OPEN_IN_PI_WARNING}\n`);
  }
  const what = `${plural(targets.length, "session")} (${formatBytes(total)})`;
  if (values.permanent) {
    if (
      !values.yes &&
      !(await out.ask(`Delete ${what} PERMANENTLY? This cannot be undone. Type "delete" to confirm: `, /^delete$/))
    ) {
      out.note("cancelled; nothing deleted\n");
      return 1;
    }
    for (const p of deletePermanently(targets)) out.text(`deleted permanently ${sanitizeLine(p)}\n`);
    return 0;
  }
  if (!values.yes && !(await out.ask(`Move ${what} to the trash? [y/N] `, /^y(es)?$/i))) {
    out.note("cancelled; nothing deleted\n");
    return 1;
  }
  const { records, failed } = trashSessions(targets, io.env);
  for (const r of records) out.text(`trashed ${sanitizeLine(r.original)}\n`);
  if (failed) {
    const hint = failed.error.name === "TrashUnavailable" ? " (use --permanent to delete without a trash)" : "";
    throw new CliError(`${failed.error.message}; ${records.length} of ${targets.length} moved to the trash${hint}`);
  }
  if (records.length) {
    const hint = restoreHint(
      records.map((r) => r.original),
      {
        named: values["session-dir"] === undefined ? undefined : storeDir(values["session-dir"], io),
        found: storeDir(undefined, io),
      },
    );
    out.note(`undo with: ${hint}\n`);
  }
  return 0;
}

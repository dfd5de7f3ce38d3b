import { statSync } from "node:fs";
import { mayBeOpenInPi, OPEN_IN_PI_WARNING } from "../../actions/recent-write.js";
import { fsPath } from "../../store/fs-path.js";
import { labelEntry } from "../../actions/label.js";
import { usageError } from "../common/errors.js";
import type { CliIO } from "../common/io.js";
import { parse, STORE_OPTION } from "../common/parse.js";
import { sanitizeLine } from "../../text/sanitize.js";
import { resolveSession } from "../common/resolve-session.js";
import { storeFromArgs } from "../common/store-arg.js";

export async function labelCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, STORE_OPTION);
  if (positionals.length < 2 || positionals.length > 3) throw usageError("label takes <session> <entryId> [label]");
  const path = await resolveSession(positionals[0], () => storeFromArgs(values["session-dir"], io).dir, io.cwd);
  // The one rule of every write path: say so (to a person at a terminal) when pi may have the file open.
  const st = statSync(fsPath(path));
  if (io.isTTY && mayBeOpenInPi(st.mtimeMs, Date.now()))
    io.stderr(`warning: ${sanitizeLine(path)} ${OPEN_IN_PI_WARNING}\n`);
  const entry = await labelEntry(path, positionals[1], positionals[2]);
  io.stdout(
    entry.label
      ? `labelled ${sanitizeLine(positionals[1])}: ${sanitizeLine(entry.label as string)}\n`
      : `cleared the label of ${sanitizeLine(positionals[1])}\n`,
  );
  return 0;
}

import { warnIfOpenInPi } from "../common/open-in-pi.js";
import { renameSession } from "../../actions/rename.js";
import { usageError } from "../common/errors.js";
import { quietIO, type CliIO } from "../common/io.js";
import { output } from "../common/output.js";
import { parse, STORE_OPTION, QUIET_OPTION } from "../common/parse.js";
import { sanitizeLine } from "../../text/sanitize.js";
import { resolveSession } from "../common/resolve-session.js";
import { storeFromArgs } from "../common/store-arg.js";

export async function renameCommand(args: string[], given: CliIO): Promise<number> {
  const { values, positionals } = parse(args, { ...STORE_OPTION, ...QUIET_OPTION });
  const io = quietIO(given, values.quiet);
  const out = output(io);
  if (positionals.length !== 2) throw usageError('rename takes <session> <name> (use "" to clear the name)');
  const path = await resolveSession(positionals[0], () => storeFromArgs(values["session-dir"], io).dir, io.cwd, {
    write: true,
  });
  warnIfOpenInPi(path, io);
  const entry = await renameSession(path, positionals[1]);
  out.text(
    entry.name
      ? `named ${sanitizeLine(path)}: ${sanitizeLine(entry.name as string)}\n`
      : `cleared the name of ${sanitizeLine(path)}\n`,
  );
  return 0;
}

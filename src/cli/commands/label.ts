import { warnIfOpenInPi } from "../common/open-in-pi.js";
import { labelEntry } from "../../actions/label.js";
import { usageError } from "../common/errors.js";
import { quietIO, type CliIO } from "../common/io.js";
import { output } from "../common/output.js";
import { parse, STORE_OPTION, QUIET_OPTION } from "../common/parse.js";
import { sanitizeLine } from "../../text/sanitize.js";
import { resolveSession } from "../common/resolve-session.js";
import { storeFromArgs } from "../common/store-arg.js";

export async function labelCommand(args: string[], given: CliIO): Promise<number> {
  const { values, positionals } = parse(args, { ...STORE_OPTION, ...QUIET_OPTION });
  const io = quietIO(given, values.quiet);
  const out = output(io);
  if (positionals.length < 2 || positionals.length > 3) throw usageError("label takes <session> <entryId> [label]");
  const path = await resolveSession(positionals[0], () => storeFromArgs(values["session-dir"], io).dir, io.cwd, {
    write: true,
  });
  warnIfOpenInPi(path, io);
  const entry = await labelEntry(path, positionals[1], positionals[2]);
  out.text(
    entry.label
      ? `labelled ${sanitizeLine(positionals[1])}: ${sanitizeLine(entry.label as string)}\n`
      : `cleared the label of ${sanitizeLine(positionals[1])}\n`,
  );
  return 0;
}

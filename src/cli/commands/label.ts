import { labelEntry } from "../../actions/label.js";
import { usageError } from "../errors.js";
import type { CliIO } from "../io.js";
import { parse, STORE_OPTION } from "../parse.js";
import { resolveSession } from "../resolve-session.js";
import { storeFromArgs } from "../store-arg.js";

export async function labelCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, STORE_OPTION);
  if (positionals.length < 2 || positionals.length > 3) throw usageError("label takes <session> <entryId> [label]");
  const path = await resolveSession(positionals[0], () => storeFromArgs(values["session-dir"], io).dir, io.cwd);
  const entry = await labelEntry(path, positionals[1], positionals[2]);
  io.stdout(entry.label ? `labelled ${positionals[1]}: ${entry.label}\n` : `cleared the label of ${positionals[1]}\n`);
  return 0;
}

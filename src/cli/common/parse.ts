import { parseArgs, type ParseArgsConfig } from "node:util";
import { usageError } from "./errors.js";

export const STORE_OPTION = { "session-dir": { type: "string" }, help: { type: "boolean", short: "h" } } as const;

/** Every command's -q / --quiet (see quietIO); not the browser's, which has no stderr to quiet. */
export const QUIET_OPTION = { quiet: { type: "boolean", short: "q" } } as const;

/** Node's parser text ("To specify a positional argument starting with a '-', …") in our words. */
export function parseErrorMessage(err: Error & { code?: string }, command?: string): string {
  const help = command ? `pi-sessions ${command} --help` : "pi-sessions --help";
  // Node names an option with a short form as "-a, --all": ours say the long one.
  const quoted = /'([^']*)'/.exec(err.message)?.[1]?.split(", ").pop();
  switch (err.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option '${quoted ?? "?"}' (see ${help})`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE": {
      const name = quoted?.split(" ")[0] ?? "?";
      return /argument missing/.test(err.message)
        ? `${name} needs a value (see ${help})`
        : `${name} takes no value (see ${help})`;
    }
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument '${quoted ?? "?"}' (see ${help})`;
    default:
      return `${err.message.split(". ")[0]} (see ${help})`;
  }
}

/** node's parseArgs, with its errors turned into one-line usage errors (exit 2). */
export function parse<O extends NonNullable<ParseArgsConfig["options"]>>(args: string[], options: O, command?: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw usageError(parseErrorMessage(err as Error & { code?: string }, command));
  }
}

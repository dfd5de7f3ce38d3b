import { parseArgs, type ParseArgsConfig } from "node:util";
import { usageError } from "./errors.js";

export const STORE_OPTION = { "session-dir": { type: "string" }, help: { type: "boolean", short: "h" } } as const;

/** Every command's -q / --quiet (see quietIO); not the browser's, which has no stderr to quiet. */
export const QUIET_OPTION = { quiet: { type: "boolean", short: "q" } } as const;

type Options = NonNullable<ParseArgsConfig["options"]>;

/** `-n` → `--limit` when `-n` is the short form of one of `options`; else the name as given. */
function longName(name: string, options: Options): string {
  if (!/^-[^-]$/.test(name)) return name;
  const long = Object.entries(options).find(([, o]) => o.short === name[1])?.[0];
  return long ? `--${long}` : name;
}

/** Node's parser text ("To specify a positional argument starting with a '-', …") in our words. */
export function parseErrorMessage(err: Error & { code?: string }, command?: string, options: Options = {}): string {
  const help = command ? `pi-sessions ${command} --help` : "pi-sessions --help";
  // Node names an option with a short form as "-a, --all": ours say the long one.
  const quoted = /'([^']*)'/.exec(err.message)?.[1]?.split(", ").pop();
  switch (err.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option '${quoted ?? "?"}' (see ${help})`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE": {
      const name = longName(quoted?.split(" ")[0] ?? "?", options);
      if (/does not take an argument/.test(err.message)) return `${name} takes no value (see ${help})`;
      // "argument is ambiguous": the next word starts with '-' (another option, or a value that has to be written with '=').
      return /ambiguous/.test(err.message)
        ? `${name} needs a value (one starting with '-' is written ${name}=VALUE; see ${help})`
        : `${name} needs a value (see ${help})`;
    }
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument '${quoted ?? "?"}' (see ${help})`;
    default:
      return `${err.message.split(". ")[0]} (see ${help})`;
  }
}

/**
 * `-n -1` as `--limit=-1`: node's parser takes a word after a value option that starts with
 * '-' for an option, and a negative number is none of ours; so the command checks the value
 * and says what it takes. Any other word starting with '-' is left to be a missing value.
 */
function withNegativeValues(args: string[], options: Options): string[] {
  const valueOption = (a: string): string | undefined => {
    const name = a.startsWith("--") ? a.slice(2) : /^-[^-]$/.test(a) ? longName(a, options).slice(2) : undefined;
    return name !== undefined && options[name]?.type === "string" ? name : undefined;
  };
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    // After "--" every word is an argument.
    if (a === "--") return [...out, ...args.slice(i)];
    const name = valueOption(a);
    const next = args[i + 1];
    if (name !== undefined && next !== undefined && /^-\.?\d/.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** node's parseArgs, with its errors turned into one-line usage errors (exit 2). */
export function parse<O extends Options>(args: string[], options: O, command?: string) {
  try {
    return parseArgs({ args: withNegativeValues(args, options), options, allowPositionals: true, strict: true });
  } catch (err) {
    throw usageError(parseErrorMessage(err as Error & { code?: string }, command, options));
  }
}
